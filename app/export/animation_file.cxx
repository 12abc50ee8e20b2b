// animation_file.cxx — the formats' names and extensions, the checks every writer needs before its
// first frame, and the file handling the writers share (animation_writers.hpp). The encoders
// themselves are one format per file.
#include "export/animation_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "export/animation_writers.hpp"
#include "paths/program_path.hpp"

namespace ts::exporting {

namespace {

constexpr int kLargestSide = 16384;
constexpr double kLongestSecondsPerFrame = 60.0;

std::string lowercase(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c); });
    return text;
}

}  // namespace

std::string_view format_name(AnimationFormat format) {
    switch (format) {
        case AnimationFormat::Gif: return "GIF";
        case AnimationFormat::Webp: return "WebP";
        case AnimationFormat::PngSeries: return "PNG series";
        case AnimationFormat::Mp4: return "MP4";
        case AnimationFormat::Webm: return "WebM";
    }
    return "?";
}

std::string_view format_extension(AnimationFormat format) {
    switch (format) {
        case AnimationFormat::Gif: return ".gif";
        case AnimationFormat::Webp: return ".webp";
        case AnimationFormat::PngSeries: return ".png";
        case AnimationFormat::Mp4: return ".mp4";
        case AnimationFormat::Webm: return ".webm";
    }
    return "";
}

std::variant<AnimationFormat, std::string> format_of_path(const std::filesystem::path& path) {
    const std::string extension = lowercase(path.extension().string());
    for (const AnimationFormat format : {AnimationFormat::Gif, AnimationFormat::Webp, AnimationFormat::PngSeries,
                                         AnimationFormat::Mp4, AnimationFormat::Webm})
        if (extension == format_extension(format)) return format;
    return path.string() + ": TileScope exports .gif, .webp, .png (a numbered series), .mp4 and .webm";
}

std::optional<std::string> why_unavailable(AnimationFormat format) {
    switch (format) {
        case AnimationFormat::Gif:
        case AnimationFormat::Webp:
        case AnimationFormat::PngSeries: return std::nullopt;  // linked in
        case AnimationFormat::Mp4:
        case AnimationFormat::Webm:
            if (paths::find_on_path("ffmpeg")) return std::nullopt;
            return "no ffmpeg program on the PATH: install ffmpeg for MP4 and WebM";
    }
    return "unknown format";
}

std::variant<std::unique_ptr<AnimationWriter>, std::string> AnimationWriter::open(const std::filesystem::path& path,
                                                                                   AnimationFormat format,
                                                                                   const AnimationSettings& settings) {
    if (auto why = why_unavailable(format)) return *why;
    if (settings.width < 1 || settings.width > kLargestSide || settings.height < 1 || settings.height > kLargestSide)
        return "an animation's frames must be 1 to " + std::to_string(kLargestSide) + " pixels a side, not " +
               std::to_string(settings.width) + "×" + std::to_string(settings.height);
    // Written so that NaN fails too.
    if (!(settings.seconds_per_frame > 0.0 && settings.seconds_per_frame <= kLongestSecondsPerFrame))
        return "each frame must be held for more than 0 and at most 60 seconds, not " +
               std::to_string(settings.seconds_per_frame);
    if (path.empty() || !path.has_filename())
        return std::string(1, '"') + path.string() +
               "\" is not a file name: name the file to export to, such as animation" +
               std::string(format_extension(format));
    std::error_code error;
    if (std::filesystem::is_directory(path, error))
        return path.string() + " is a folder: name a file in it to export to";

    const detail::Destination destination = detail::destination_of(path);
    switch (format) {
        case AnimationFormat::Gif: return detail::open_gif_writer(destination, settings);
        case AnimationFormat::Webp: return detail::open_webp_writer(destination, settings);
        case AnimationFormat::PngSeries: return detail::open_png_series_writer(destination, settings);
        case AnimationFormat::Mp4:
        case AnimationFormat::Webm: return detail::open_ffmpeg_writer(destination, format, settings);
    }
    return "unknown format";
}

AnimationWriter::~AnimationWriter() = default;

namespace detail {

Destination destination_of(const std::filesystem::path& final_path) {
    Destination destination;
    destination.final_path = final_path;
    destination.folder = final_path.has_parent_path() ? final_path.parent_path() : std::filesystem::path(".");
    return destination;
}

std::string folder_for_messages(const std::filesystem::path& folder) {
    std::error_code error;
    std::filesystem::path shown = std::filesystem::absolute(folder, error);
    if (error) shown = folder;
    shown = shown.lexically_normal();
    std::string text = shown.string();
    while (text.size() > 1 && text.back() == '/') text.pop_back();
    return text;
}

std::string cannot_write_in(const std::filesystem::path& folder, const std::error_code& error) {
    return "cannot write in " + folder_for_messages(folder) + ": " + error.message();
}

std::string cannot_write_in(const std::filesystem::path& folder, int errno_value) {
    return cannot_write_in(folder, std::error_code(errno_value, std::generic_category()));
}

std::filesystem::path temporary_beside(const Destination& destination, std::string_view role) {
    // The count keeps two writers of one process apart, the pid two processes.
    static std::atomic<unsigned> made{0};
    const unsigned number = ++made;
    // Hidden (a leading dot), and named after the file it becomes.
    std::string name(1, '.');
    name += destination.final_path.filename().string() + "." + std::string(role) + "-" +
            std::to_string(static_cast<long>(getpid())) + "-" + std::to_string(number);
    return destination.folder / name;
}

std::optional<std::string> create_empty_file(const std::filesystem::path& temporary,
                                             const std::filesystem::path& folder) {
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) return cannot_write_in(folder, errno);
    ::close(fd);
    return std::nullopt;
}

std::optional<std::string> move_into_place(const std::filesystem::path& temporary,
                                           const std::filesystem::path& final_path) {
    std::error_code error;
    std::filesystem::rename(temporary, final_path, error);
    if (!error) return std::nullopt;
    remove_quietly(temporary);
    return "cannot write " + final_path.string() + ": " + error.message();
}

void remove_quietly(const std::filesystem::path& path) {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
}

std::uintmax_t size_of(const std::filesystem::path& file) {
    std::error_code error;
    const std::uintmax_t bytes = std::filesystem::file_size(file, error);
    return error ? 0 : bytes;
}

std::variant<FinishedAnimation, std::string> finish_one_file(const std::filesystem::path& temporary,
                                                             const std::filesystem::path& final_path, int frames,
                                                             const std::function<std::optional<std::string>()>& encode) {
    if (frames == 0) {
        remove_quietly(temporary);
        return std::string("no frames to export");
    }
    if (auto failed = encode()) {
        remove_quietly(temporary);
        return *failed;
    }
    if (auto failed = move_into_place(temporary, final_path)) return *failed;
    FinishedAnimation finished;
    finished.files = {final_path};
    finished.bytes = size_of(final_path);
    finished.frames = frames;
    return finished;
}

std::optional<std::string> check_frame_size(std::span<const unsigned char> rgb, const AnimationSettings& settings,
                                            int frame_number) {
    const std::size_t expected =
        static_cast<std::size_t>(settings.width) * static_cast<std::size_t>(settings.height) * 3;
    if (rgb.size() == expected) return std::nullopt;
    return "frame " + std::to_string(frame_number) + " has " + std::to_string(rgb.size()) + " bytes; a " +
           std::to_string(settings.width) + "×" + std::to_string(settings.height) + " RGB frame has " +
           std::to_string(expected) + " (width × height × 3)";
}

int frame_duration(const AnimationSettings& settings, int units_per_second, int minimum) {
    const long long units = std::llround(settings.seconds_per_frame * units_per_second);
    return static_cast<int>(std::max<long long>(units, minimum));
}

}  // namespace detail

}  // namespace ts::exporting
