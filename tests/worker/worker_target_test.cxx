// Where the GPU worker runs (gpu/worker_target.hpp): --gpu's good forms give the exact program
// and arguments to start; hostile hosts, users and partitions are refused with their sentence,
// as a value, so nothing reaches worker_argv() and no process starts.
#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "gpu/supervisor.hpp"
#include "gpu/worker_target.hpp"

namespace {

using namespace ts::gpu;
using Argv = std::vector<std::string>;

WorkerTarget parsed(std::string_view spec) {
    auto target = parse_worker_target(spec);
    EXPECT_TRUE(std::holds_alternative<WorkerTarget>(target)) << spec << ": " << std::get<std::string>(target);
    return std::holds_alternative<WorkerTarget>(target) ? std::get<WorkerTarget>(target) : WorkerTarget{};
}

const Argv kSshOptions{"ssh", "-T", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "-o", "ServerAliveInterval=10", "-o", "ServerAliveCountMax=3"};

Argv ssh_argv(Argv middle, Argv tail) {
    Argv argv = kSshOptions;
    argv.insert(argv.end(), middle.begin(), middle.end());
    argv.insert(argv.end(), tail.begin(), tail.end());
    return argv;
}

TEST(WorkerTarget, LocalIsThisProgramAsAChild) {
    EXPECT_EQ(parsed("local"), WorkerTarget{});
    EXPECT_EQ(worker_argv(parsed("local")), this_program_as_worker());
    EXPECT_EQ(worker_argv(WorkerTarget{}), this_program_as_worker());
}

TEST(WorkerTarget, SshRunsTheFixedCommandAfterDoubleDash) {
    EXPECT_EQ(worker_argv(parsed("ssh://gpu1")), ssh_argv({}, {"--", "gpu1", "tilescope", "worker"}));
    EXPECT_EQ(worker_argv(parsed("ssh://ana@gpu1.cs.example.edu")),
              ssh_argv({"-l", "ana"}, {"--", "gpu1.cs.example.edu", "tilescope", "worker"}));
    EXPECT_EQ(worker_argv(parsed("ssh://127.0.0.1:2222")),
              ssh_argv({"-p", "2222"}, {"--", "127.0.0.1", "tilescope", "worker"}));
    EXPECT_EQ(worker_argv(parsed("ssh://a.b-c_d@lab-gpu_2:65535")),
              ssh_argv({"-p", "65535", "-l", "a.b-c_d"}, {"--", "lab-gpu_2", "tilescope", "worker"}));
    EXPECT_EQ(worker_argv(parsed("ssh://[::1]:22")), ssh_argv({"-p", "22"}, {"--", "::1", "tilescope", "worker"}));
    EXPECT_EQ(worker_argv(parsed("ssh://ana@[fe80::1]")), ssh_argv({"-l", "ana"}, {"--", "fe80::1", "tilescope", "worker"}));
    EXPECT_EQ(worker_argv(parsed("ssh://h:1")), ssh_argv({"-p", "1"}, {"--", "h", "tilescope", "worker"}));
}

TEST(WorkerTarget, SlurmAsksForOneGpu) {
    EXPECT_EQ(worker_argv(parsed("slurm")), (Argv{"srun", "--gres=gpu:1", "--unbuffered", "tilescope", "worker"}));
    EXPECT_EQ(worker_argv(parsed("slurm:gpu-a100")),
              (Argv{"srun", "--gres=gpu:1", "--unbuffered", "--partition=gpu-a100", "tilescope", "worker"}));
}

TEST(WorkerTarget, ACommandIsUsedAsGiven) {
    const Argv words{"ssh", "-J", "jump", "gpu1", "/opt/tilescope/bin/tilescope", "worker"};
    const auto target = worker_target_from_command(words);
    ASSERT_TRUE(std::holds_alternative<WorkerTarget>(target));
    EXPECT_EQ(worker_argv(std::get<WorkerTarget>(target)), words);
    EXPECT_EQ(std::get<std::string>(worker_target_from_command({})),
              "--worker-command needs the program that starts a worker, then its arguments");
    EXPECT_TRUE(std::holds_alternative<std::string>(worker_target_from_command({""})));
}

TEST(WorkerTarget, DescribedAsWritten) {
    for (const char* spec : {"local", "ssh://gpu1", "ssh://ana@gpu1:2222", "ssh://[::1]:22", "slurm", "slurm:gpu"})
        EXPECT_EQ(describe(parsed(spec)), spec);
}

// Each hostile --gpu value, and the sentence it is refused with. A refusal is a string where a
// WorkerTarget would be: worker_argv() takes only a WorkerTarget, so none of these can reach
// it, and nothing is started.
// A worker over ssh that stopped with ssh's "Permission denied": how to set up a key; nothing
// for other lines or other targets.
TEST(WorkerTarget, APermissionDeniedOverSshGetsKeyAdvice) {
    const std::string denied = "ana@gpu1: Permission denied (publickey).";
    EXPECT_EQ(advice_for_ssh_failure(parsed("ssh://ana@gpu1:2222"), denied),
              "the server gpu1 did not accept this computer's key: set up a key for it: ssh-keygen, then "
              "ssh-copy-id -p 2222 ana@gpu1, then ssh -p 2222 ana@gpu1 once in a terminal");
    EXPECT_NE(advice_for_ssh_failure(parsed("ssh://gpu1"), denied).find("ssh-copy-id gpu1, then ssh gpu1 once"),
              std::string::npos);
    EXPECT_EQ(advice_for_ssh_failure(parsed("ssh://gpu1"), "ssh: connect to host gpu1 port 22: Connection refused"), "");
    EXPECT_EQ(advice_for_ssh_failure(parsed("slurm"), denied), "");
    EXPECT_EQ(advice_for_ssh_failure(parsed("local"), denied), "");
}

TEST(WorkerTarget, HostileValuesAreRefusedWithTheirSentence) {
    const std::pair<const char*, const char*> cases[] = {
        {"ssh://-oProxyCommand=touch /tmp/x",
         "--gpu \"ssh://-oProxyCommand=touch /tmp/x\": the host cannot start with \"-\", which would be read as an option"},
        {"ssh://host;rm -rf ~", "--gpu \"ssh://host;rm -rf ~\": the host may hold only letters, digits, \".\", \"-\" and \"_\", not \";\""},
        {"ssh://$(id)", "the host may hold only letters, digits, \".\", \"-\" and \"_\", not \"$\""},
        {"ssh://host -oProxyCommand=x", "the host may hold only letters, digits, \".\", \"-\" and \"_\", not a space"},
        {"ssh://user@-host", "the host cannot start with \"-\""},
        {"ssh://-l root host", "the host cannot start with \"-\""},
        {"ssh://-luser@host", "the user name cannot start with \"-\""},
        {"ssh://host:0", "the port must be a number from 1 to 65535, not \"0\""},
        {"ssh://host:99999", "the port must be a number from 1 to 65535, not \"99999\""},
        {"ssh://host:", "the port must be a number from 1 to 65535, not \"\""},
        {"ssh://host:22;id", "the port must be a number from 1 to 65535, not \"22;id\""},
        {"ssh://", "the address names no host; write ssh://[user@]host[:port]"},
        {"ssh://ana@", "the address names no host"},
        {"ssh://@host", "the user name before \"@\" is empty"},
        {"ssh://host/tmp", "with nothing after the host or port"},
        {"ssh://host?x=1", "with nothing after the host or port"},
        {"ssh://host#x", "with nothing after the host or port"},
        {"ssh://`id`", "not \"`\""},
        {"ssh://host|nc", "not \"|\""},
        {"ssh://host&&id", "not \"&\""},
        {"ssh://'host'", "not \"'\""},
        {"ssh://\"host\"", "not \"\"\""},
        {"ssh://host\nProxyCommand=x", "--gpu \"ssh://host\\x0aProxyCommand=x\": the host may hold only letters, digits, \".\", \"-\" and \"_\", not whitespace"},
        {"ssh://host\tx", "not whitespace"},
        {"ssh://ho%2dst", "not \"%\""},
        {"ssh://a@b@host", "the host may hold only letters, digits, \".\", \"-\" and \"_\", not \"@\""},
        {"ssh://ana;id@host", "the user name may hold only letters, digits, \".\", \"-\" and \"_\", not \";\""},
        {"ssh://.", "the host cannot start with \".\""},
        {"ssh://[::1;id]", "not \";\""},
        {"ssh://[-oProxyCommand=x]", "the address between \"[\" and \"]\" is not IPv6"},
        {"ssh://[::1-x]", "not \"-\""},
        {"ssh://[::1]x", "only \":PORT\" may follow the \"]\" of an IPv6 address"},
        {"ssh://[::1", "has no \"]\""},
        {"ssh://h\xc3\xa9", "not a character outside ASCII"},
        {"slurm:-p x", "--gpu \"slurm:-p x\": the partition cannot start with \"-\", which would be read as an option"},
        {"slurm:gpu;id", "the partition may hold only letters, digits, \".\", \"-\" and \"_\", not \";\""},
        {"slurm:gpu --uid=0", "not a space"},
        {"slurm:", "the partition after \"slurm:\" is empty; write slurm for the cluster's default"},
        {"", "--gpu takes local, ssh://[user@]host[:port], slurm or slurm:PARTITION"},
        {"gpu1", "--gpu takes local, ssh://[user@]host[:port], slurm or slurm:PARTITION"},
        {"SSH://gpu1", "--gpu takes local"},
        {"ssh:gpu1", "--gpu takes local"},
        {"local;id", "--gpu takes local"},
        {"-oProxyCommand=x", "--gpu takes local"},
    };
    for (const auto& [spec, sentence] : cases) {
        const auto target = parse_worker_target(spec);
        ASSERT_TRUE(std::holds_alternative<std::string>(target)) << spec << " was accepted";
        const std::string& why = std::get<std::string>(target);
        EXPECT_NE(why.find(sentence), std::string::npos) << spec << "\n" << why;
        EXPECT_TRUE(why.starts_with("--gpu ")) << why;
        EXPECT_EQ(why.find('\n'), std::string::npos) << "one line: " << why;
    }
}

}  // namespace
