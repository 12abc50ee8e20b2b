#include "kernel.hpp"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>

#include "gpu/nvrtc_compiler.hpp"
#include "model/format.hpp"
#include "model/user_kernel.hpp"

namespace ts::cli {

using model::format_text;

CLI::App* add_kernel_command(CLI::App& app, KernelOptions& options) {
    CLI::App* kernel = app.add_subcommand(
        "kernel", "Your own matmul kernel, in a .cu file with TileScope's signature: compiled with NVRTC (no GPU "
                  "needed), its errors and warnings listed with line and column. Running, checking and timing it "
                  "come next; for now --compile-only is required");
    kernel->add_option("file", options.file, "the kernel's .cu file")->type_name("FILE");
    kernel->add_flag("--compile-only", options.compile_only, "compile and report, do not run");
    kernel->add_option("--arch", options.arch, "the GPU architecture to compile for, sm_XY (H100 and H200: sm_90)")
        ->capture_default_str();
    kernel->add_option("--time-limit", options.time_limit_s, "stop the compiler after this many seconds")
        ->capture_default_str()
        ->check(CLI::Range(0.01, 3600.0));
    kernel->add_flag("--template", options.template_out, "print the empty kernel to start from, and stop");
    return kernel;
}

namespace {

// "sm_90" → 9, 0; nullopt for anything else.
std::optional<std::pair<int, int>> parse_arch(const std::string& arch) {
    if (arch.size() < 5 || arch.size() > 6 || !arch.starts_with("sm_")) return std::nullopt;
    for (std::size_t i = 3; i < arch.size(); ++i)
        if (arch[i] < '0' || arch[i] > '9') return std::nullopt;
    const int number = std::stoi(arch.substr(3));
    if (number < 50) return std::nullopt;
    return std::pair{number / 10, number % 10};
}

}  // namespace

int run_kernel(const KernelOptions& options, std::ostream& out, std::ostream& err) {
    if (options.template_out) {
        out << model::empty_user_kernel();
        return 0;
    }
    if (options.file.empty()) {
        err << "tilescope kernel: name the kernel's .cu file (tilescope-cli kernel --template prints one to start "
               "from)\n";
        return 2;
    }
    if (!options.compile_only) {
        err << "tilescope kernel: only --compile-only exists yet: running, checking and timing your kernel are being "
               "built (issue 25)\n";
        return 2;
    }
    const auto arch = parse_arch(options.arch);
    if (!arch) {
        err << "tilescope kernel: --arch must be sm_ and a compute capability, like sm_90 or sm_80, got \""
            << options.arch << "\"\n";
        return 2;
    }
    std::ifstream in(options.file, std::ios::binary);
    if (!in) {
        err << "tilescope kernel: cannot open " << options.file << " (missing, or no permission to read it)\n";
        return 2;
    }
    // Read at most one byte past the limit: enough to say the file is too large.
    std::string source(static_cast<std::size_t>(model::kMostUserKernelBytes) + 1, '\0');
    in.read(source.data(), static_cast<std::streamsize>(source.size()));
    source.resize(static_cast<std::size_t>(in.gcount()));
    if (auto problem = model::user_kernel_problem(source)) {
        err << "tilescope kernel: " << options.file << ": " << *problem << "\n";
        return 2;
    }
    std::string why;
    const auto version = gpu::nvrtc_version(why);
    if (!version) {
        err << "tilescope kernel: " << why << "\n";
        return 2;
    }
    const std::string name = std::filesystem::path(options.file).filename().string();
    const gpu::CompileResult result = gpu::compile_user_kernel_with_deadline(source, name, arch->first, arch->second,
                                                                           options.time_limit_s);
    for (const model::Diagnostic& d : result.diagnostics)
        out << format_text("{}:{}:{}: {}: {}\n", name, d.line, d.column, model::severity_name(d.severity), d.message);
    if (!result.ok) {
        // Where the compiler said nothing about the file itself, its own words.
        if (result.diagnostics.empty() && !result.log.empty()) out << result.log << "\n";
        err << "tilescope kernel: " << name << ": " << result.why << "\n";
        return 1;
    }
    out << format_text("{}: compiled for {} with NVRTC {} in {} s: {} bytes of machine code, {} warning{}\n", name,
                       options.arch, *version, model::fixed(result.seconds, 2), result.cubin.size(),
                       result.diagnostics.size(), result.diagnostics.size() == 1 ? "" : "s");
    return 0;
}

}  // namespace ts::cli
