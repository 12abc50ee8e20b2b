#include "gui_harness.hpp"

#include <set>

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <stb_image.h>

namespace ts::test {

int distinct_colours(const Image& image) {
    std::set<int> colours;
    for (std::size_t i = 0; i + 2 < image.pixels.size(); i += 3)
        colours.insert(image.pixels[i] << 16 | image.pixels[i + 1] << 8 | image.pixels[i + 2]);
    return static_cast<int>(colours.size());
}

std::string out_path(const std::string& name) { return std::string(GUI_TEST_OUT) + "/" + name; }

int run(const std::string& prefix, const std::string& args, std::string& output) {
    // One log per test, so that tests may run in parallel (ctest -j).
    const testing::TestInfo* test = testing::UnitTest::GetInstance()->current_test_info();
    const std::string test_name = std::string(test->test_suite_name()) + "." + test->name();
    const std::string log = out_path(test_name + ".log");
    // Each test's runs keep their settings (the last view and tab opened among them) apart from
    // other tests', which run beside them, and from the user's own; a test that chose a place
    // itself (failure_gui_test's journal) keeps it.
    std::string environment;
    for (const char* name : {"XDG_CONFIG_HOME", "XDG_STATE_HOME"})
        if (std::getenv(name) == nullptr) environment += std::string(name) + "='" + out_path(test_name + "." + name) + "' ";
    const std::string command = "env " + environment + prefix + TILESCOPE_PATH " " + args + " > '" + log + "' 2>&1";
    const int status = std::system(command.c_str());
    std::ifstream in(log);
    std::stringstream text;
    text << in.rdbuf();
    output = text.str();
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int run_in_window(const std::string& args, std::string& output) {
    const char* display = std::getenv("DISPLAY");
    if (display != nullptr && *display != '\0') return run("", args, output);
    // Each run starts its own Xvfb. With tests in parallel two of them can race for one display
    // number, and the loser fails before tilescope draws anything; such a run is tried again,
    // and what the failed tries printed stays at the top of the output.
    std::string failed_tries;
    for (int attempt = 1;; ++attempt) {
        const int status = run("xvfb-run -a -s '-screen 0 1920x1080x24' ", args, output);
        // xvfb-run also replaces the program's exit status when removing its temporary folder
        // fails (seen under AddressSanitizer, with tests in parallel): that run says nothing.
        const bool no_display = output.find("Xvfb failed to start") != std::string::npos ||
                                output.find("cannot open a window") != std::string::npos ||
                                output.find("problem while cleaning up temporary directory") != std::string::npos;
        if (!no_display || attempt == 3) {
            output = failed_tries + output;
            return status;
        }
        failed_tries += "[try " + std::to_string(attempt) + " had no display; tried again]\n" + output;
    }
}

Image load_png(const std::string& path, const std::string& context) {
    Image image;
    int channels = 0;
    unsigned char* data = stbi_load(path.c_str(), &image.width, &image.height, &channels, 3);
    if (!data) {
        ADD_FAILURE() << "cannot load " << path << ": " << stbi_failure_reason() << "\n" << context;
        return image;
    }
    image.pixels.assign(data, data + static_cast<std::size_t>(image.width) * image.height * 3);
    stbi_image_free(data);
    return image;
}

Image screenshot(const std::string& name, const std::string& args, std::string* output) {
    const std::string path = out_path(name);
    std::remove(path.c_str());
    std::string printed;
    const int status = run_in_window("--screenshot '" + path + "' " + args, printed);
    EXPECT_EQ(status, 0) << printed;
    if (output) *output = printed;
    return load_png(path, printed);
}

}  // namespace ts::test
