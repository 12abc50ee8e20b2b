// `tilescope-cli kernel FILE.cu`: the empty kernel and the starters it prints compile; a broken one
// is listed as file:line:column, here (--compile-only) and through the worker; what cannot be
// compiled, or is not asked right, says why. Without a GPU a kernel still compiles, and the command
// says that running it needs one.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

#include "gpu/nvrtc_compiler.hpp"
#include "support/run_command.hpp"

namespace {

namespace fs = std::filesystem;
using ts::testing_support::expect_refused;

ts::testing_support::CommandOutcome kernel(const std::string& arguments) {
    return ts::testing_support::run_cli("kernel " + arguments);
}

fs::path write(const std::string& name, const std::string& text) {
    const fs::path path = fs::temp_directory_path() / ("tilescope-kernel-test-" + name);
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

// A path as one word of the command line.
std::string quoted(const fs::path& path) { return "'" + path.string() + "'"; }

TEST(KernelCommand, WrongRequestsSayWhy) {
    const auto template_out = kernel("--template");
    EXPECT_EQ(template_out.exit_code, 0);
    EXPECT_NE(template_out.output.find("extern \"C\" __global__ void matmul("), std::string::npos);
    EXPECT_EQ(kernel("").exit_code, 2);
    const std::string empty = quoted(write("empty.cu", ""));
    expect_refused("kernel " + empty, "the file is empty");
    expect_refused("kernel --starter regtile", "--starter takes empty, naive or tiled");
    const std::string bad_launch = quoted(write("bad-launch.cu", "// block: 16\nextern \"C\" __global__ void matmul("
                                                                 "const float* A, const float* B, float* C, int M, "
                                                                 "int N, int K) {}\n"));
    expect_refused("kernel " + bad_launch, "line 1: // block: needs two expressions");
    expect_refused("kernel --dtype bf16 " + bad_launch, "your kernel takes float matrices");
    expect_refused("kernel --compile-only " + empty, "the file is empty");
    expect_refused("kernel --compile-only /nonexistent/k.cu", "cannot open /nonexistent/k.cu");
    expect_refused("kernel --compile-only --arch 90 " + empty, "--arch must be sm_");
}

// A word of a shell's command line, whatever it holds.
std::string shell_word(const std::string& text) {
    std::string word = "'";
    for (const char c : text) word += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return word + "'";
}

// --gpu: a refused value exits 2 with its sentence before anything runs: an `ssh` first on PATH,
// which notes its arguments in a file, is never started. A good value starts that ssh with the
// fixed remote command; it exits at once, and the kernel's request fails with a sentence.
TEST(KernelCommand, GpuIsCheckedBeforeAnythingRuns) {
    const fs::path bin = fs::temp_directory_path() / "tilescope-kernel-test-fake-ssh";
    fs::create_directories(bin);
    const fs::path called = bin / "ssh-was-called", touched = bin / "touched";
    fs::remove(called);
    fs::remove(touched);
    std::ofstream(bin / "ssh") << "#!/bin/sh\nprintf '%s\\n' \"$@\" > " << shell_word(called.string()) << "\nexit 255\n";
    fs::permissions(bin / "ssh", fs::perms::owner_all);
    const std::string file = quoted(write("gpu.cu", kernel("--template").output));
    const auto with_fake_ssh = [&](const std::string& spec) {
        return ts::testing_support::run_command("PATH=" + shell_word(bin.string()) + ":\"$PATH\" " + TILESCOPE_CLI_PATH +
                                                " kernel --no-measure --gpu " + shell_word(spec) + " " + file);
    };
    const std::pair<std::string, const char*> hostile[] = {
        {"ssh://-oProxyCommand=touch " + touched.string(), "the host cannot start with \"-\""},
        {"ssh://host;touch " + touched.string(), "not \";\""},
        {"ssh://$(touch " + touched.string() + ")", "not \"$\""},
        {"ssh://`touch " + touched.string() + "`", "not \"`\""},
        {"ssh://host -oProxyCommand=x", "not a space"},
        {"ssh://user@-host", "the host cannot start with \"-\""},
        {"ssh://-l root host", "the host cannot start with \"-\""},
        {"ssh://host:0", "the port must be a number from 1 to 65535"},
        {"ssh://host:99999", "the port must be a number from 1 to 65535"},
        {"ssh://", "the address names no host"},
        {"ssh://host/bin/sh", "with nothing after the host or port"},
        {"slurm:-p x", "the partition cannot start with \"-\""},
        {"tcp://host", "--gpu takes local, ssh://[user@]host[:port], slurm or slurm:PARTITION"},
    };
    for (const auto& [spec, sentence] : hostile) {
        const auto refused = with_fake_ssh(spec);
        EXPECT_EQ(refused.exit_code, 2) << spec << "\n" << refused.output;
        EXPECT_NE(refused.output.find("tilescope kernel: --gpu \""), std::string::npos) << refused.output;
        EXPECT_NE(refused.output.find(sentence), std::string::npos) << spec << "\n" << refused.output;
        EXPECT_FALSE(fs::exists(called)) << spec << ": ssh was started";
        EXPECT_FALSE(fs::exists(touched)) << spec << ": a command ran";
    }

    const auto through_ssh = with_fake_ssh("ssh://ana@gpu1:2222");
    EXPECT_EQ(through_ssh.exit_code, 2) << through_ssh.output;
    EXPECT_NE(through_ssh.output.find("could not connect to gpu1"), std::string::npos) << through_ssh.output;
    std::ifstream arguments(called);
    std::string argument, said;
    while (std::getline(arguments, argument)) said += argument + " ";
    EXPECT_EQ(said, "-T -o BatchMode=yes -o ConnectTimeout=10 -o ServerAliveInterval=10 -o ServerAliveCountMax=3 -p 2222 -l ana -- gpu1 "
                    "tilescope worker ");
}

TEST(KernelCommand, CompilesAndListsErrors) {
    std::string why;
    if (!ts::gpu::nvrtc_version(why)) GTEST_SKIP() << "no NVRTC: " << why;
    const auto empty = kernel("--template");
    const fs::path good = write("good.cu", empty.output);
    const auto compiled = kernel("--compile-only '" + good.string() + "'");
    EXPECT_EQ(compiled.exit_code, 0) << compiled.output;
    EXPECT_NE(compiled.output.find("compiled for sm_90 with NVRTC"), std::string::npos) << compiled.output;
    const fs::path broken = write("broken.cu", "extern \"C\" __global__ void matmul(const float* A, const float* B, "
                                               "float* C, int M, int N, int K) {\n    C[0] = nope;\n}\n");
    const auto failed = kernel("--compile-only --arch sm_80 '" + broken.string() + "'");
    EXPECT_EQ(failed.exit_code, 1);
    EXPECT_NE(failed.output.find("tilescope-kernel-test-broken.cu:2:12: error: identifier \"nope\" is undefined"),
              std::string::npos)
        << failed.output;
}

// Through the worker, as a user without --compile-only meets it.
TEST(KernelCommand, TheWorkerCompilesAndRunsWhereThereIsAGpu) {
    std::string why;
    if (!ts::gpu::nvrtc_version(why)) GTEST_SKIP() << "no NVRTC: " << why;
    const fs::path tiled = write("tiled.cu", kernel("--starter tiled").output);
    const auto ran = kernel("--m 128 --n 128 --k 128 --samples 3 '" + tiled.string() + "'");
    EXPECT_NE(ran.output.find("tilescope-kernel-test-tiled.cu: compiled for sm_"), std::string::npos) << ran.output;
    if (ran.exit_code == 2) {
        EXPECT_NE(ran.output.find("compiled, but running it needs a GPU"), std::string::npos) << ran.output;
    } else {
        EXPECT_EQ(ran.exit_code, 0) << ran.output;
        EXPECT_NE(ran.output.find("301 × 257 × 131"), std::string::npos) << ran.output;
        EXPECT_EQ(ran.output.find("WRONG"), std::string::npos) << ran.output;
        EXPECT_NE(ran.output.find("yours takes"), std::string::npos) << ran.output;
    }
    const fs::path broken = write("broken2.cu", "extern \"C\" __global__ void matmul(const float* A, const float* B, "
                                                "float* C, int M, int N, int K) {\n    C[0] = nope;\n}\n");
    const auto failed = kernel("'" + broken.string() + "'");
    EXPECT_EQ(failed.exit_code, 1) << failed.output;
    EXPECT_NE(failed.output.find("tilescope-kernel-test-broken2.cu:2:12: error: identifier \"nope\" is undefined"),
              std::string::npos)
        << failed.output;
}

}  // namespace
