#include "gpu_queue.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <optional>
#include <utility>
#include <thread>
#include <vector>

#include "model/format.hpp"

namespace ts::gpu {

using model::format_text;

namespace {

using Clock = std::chrono::steady_clock;

// A file name made of the id: no '/', no leading '.', nothing a shell would trip on.
std::string safe_name(const std::string& id) {
    std::string name = id.empty() ? std::string("gpu") : id;
    for (char& c : name)
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.'))
            c = '_';
    if (name.front() == '.') name.front() = '_';
    return name;
}

// The directory, made when missing with the sticky bit (mode 1777, as /tmp): every user may add
// files and none may remove another's. An existing one must be a real directory, not a link.
std::optional<std::string> make_shared_dir(const std::filesystem::path& dir) {
    if (mkdir(dir.c_str(), 01777) == 0) {
        chmod(dir.c_str(), 01777);  // mkdir's mode passed through the umask
        return std::nullopt;
    }
    if (errno != EEXIST) return format_text("cannot make the GPU's queue directory {}: {}", dir.string(), std::strerror(errno));
    struct stat st{};
    if (lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
        return format_text("the GPU's queue directory {} is not a directory", dir.string());
    return std::nullopt;
}

// Opens `file`, creating it readable and writable by all when missing; read-only where another
// user made it so (flock works on either). Never follows a link.
int open_shared_file(const std::filesystem::path& file) {
    int fd = open(file.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0) {
        struct stat st{};
        if (fstat(fd, &st) == 0 && st.st_uid == geteuid()) fchmod(fd, 0666);  // past the umask
        return fd;
    }
    return open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
}

std::string ticket_name() {
    timespec now{};
    clock_gettime(CLOCK_REALTIME, &now);
    const long long ns = static_cast<long long>(now.tv_sec) * 1000000000LL + now.tv_nsec;
    char name[48];
    std::snprintf(name, sizeof name, "%020lld-%lld", ns, static_cast<long long>(getpid()));  // sorts by arrival
    return name;
}

bool is_ticket(const char* name) { return name[0] >= '0' && name[0] <= '9'; }

// Whether the ticket's owner still holds it; a dead owner's ticket is removed where this user may.
bool ticket_alive(const std::filesystem::path& ticket) {
    const int fd = open(ticket.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return false;  // gone meanwhile
    const bool held = flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    if (!held) unlink(ticket.c_str());
    close(fd);
    return held;
}

// Live tickets in `queue` whose names sort before `mine` (all of them for an empty `mine`).
int live_tickets_before(const std::filesystem::path& queue, const std::string& mine) {
    DIR* dir = opendir(queue.c_str());
    if (!dir) return 0;
    std::vector<std::string> names;
    while (const dirent* entry = readdir(dir))
        if (is_ticket(entry->d_name) && (mine.empty() || std::strcmp(entry->d_name, mine.c_str()) < 0))
            names.emplace_back(entry->d_name);
    closedir(dir);
    int live = 0;
    for (const std::string& name : names) live += ticket_alive(queue / name) ? 1 : 0;
    return live;
}

}  // namespace

std::string GpuQueueSetting::describe() const {
    return off ? std::string("off (TILESCOPE_GPU_LOCK=off)") : dir.string();
}

GpuQueueSetting gpu_queue_setting_from_environment() {
    GpuQueueSetting setting;
    const char* value = std::getenv("TILESCOPE_GPU_LOCK");
    if (!value || !*value) return setting;
    if (std::string_view(value) == "off") setting.off = true;
    else setting.dir = value;
    return setting;
}

GpuTurn::GpuTurn(GpuTurn&& other) noexcept { *this = std::move(other); }

GpuTurn& GpuTurn::operator=(GpuTurn&& other) noexcept {
    if (this == &other) return *this;
    release();
    waited_s = other.waited_s;
    ahead_at_arrival = other.ahead_at_arrival;
    m_lock_fd = std::exchange(other.m_lock_fd, -1);
    m_ticket_fd = std::exchange(other.m_ticket_fd, -1);
    m_ticket = std::move(other.m_ticket);
    return *this;
}

GpuTurn::~GpuTurn() { release(); }

void GpuTurn::release() {
    // The ticket goes first: the next in line then sees nobody ahead and blocks on the lock
    // until it is closed just after.
    if (m_ticket_fd >= 0) {
        unlink(m_ticket.c_str());
        close(m_ticket_fd);
        m_ticket_fd = -1;
    }
    if (m_lock_fd >= 0) {
        close(m_lock_fd);  // closing the last descriptor releases the flock
        m_lock_fd = -1;
    }
}

std::variant<GpuQueue, std::string> GpuQueue::open(const std::filesystem::path& dir, const std::string& gpu_id) {
    if (auto why = make_shared_dir(dir)) return *why;
    GpuQueue queue;
    const std::string name = safe_name(gpu_id);
    queue.m_lock = dir / (name + ".lock");
    queue.m_queue = dir / (name + ".queue");
    const int fd = open_shared_file(queue.m_lock);
    if (fd < 0) return format_text("cannot open the GPU's lock {}: {}", queue.m_lock.string(), std::strerror(errno));
    close(fd);
    if (auto why = make_shared_dir(queue.m_queue)) return *why;
    return queue;
}

GpuTurn GpuQueue::take_turn(const std::function<void(int ahead)>& on_wait, std::chrono::milliseconds poll) const {
    const Clock::time_point asked = Clock::now();
    GpuTurn turn;
    // The ticket is made under a name the others pass over, flock'ed, then renamed into the
    // queue: nobody can see it before its owner holds it and take it for a dead one.
    const std::string name = ticket_name();
    const std::filesystem::path draft = m_queue / (".draft-" + name);
    turn.m_ticket_fd = ::open(draft.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (turn.m_ticket_fd >= 0) {
        flock(turn.m_ticket_fd, LOCK_EX);  // this process's own new file: never waits
        turn.m_ticket = m_queue / name;
        if (rename(draft.c_str(), turn.m_ticket.c_str()) != 0) {
            unlink(draft.c_str());
            close(turn.m_ticket_fd);
            turn.m_ticket_fd = -1;
        }
    }
    // Without a ticket (the queue directory refused it) the lock alone still keeps runs apart.
    int last_ahead = 0;
    for (bool first = true; turn.m_ticket_fd >= 0; first = false) {
        const int ahead = live_tickets_before(m_queue, name);
        if (first) turn.ahead_at_arrival = ahead;
        if (ahead == 0) break;
        if (ahead != last_ahead && on_wait) on_wait(ahead);
        last_ahead = ahead;
        std::this_thread::sleep_for(poll);  // the one ahead runs a whole request: polling costs nothing it would notice
    }
    turn.m_lock_fd = open_shared_file(m_lock);
    // Free at once, unless the request ahead is still releasing it, or someone holds the lock
    // without a ticket (an administrator's `flock` on it, reserving the GPU): that one is ahead too.
    if (turn.m_lock_fd >= 0 && flock(turn.m_lock_fd, LOCK_EX | LOCK_NB) != 0) {
        if (on_wait && last_ahead != 1 && live_tickets_before(m_queue, name) == 0) on_wait(1);
        while (flock(turn.m_lock_fd, LOCK_EX) != 0 && errno == EINTR) {
        }
    }
    turn.waited_s = std::chrono::duration<double>(Clock::now() - asked).count();
    return turn;
}

int GpuQueue::queued() const { return live_tickets_before(m_queue, ""); }

}  // namespace ts::gpu
