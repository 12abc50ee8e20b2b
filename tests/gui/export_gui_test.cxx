// Exported animations (issue 26), from the real window under xvfb-run: the theatre's tiled block
// as a GIF (one frame per sub-step, 1280 × 720, at most 5 MB, the same bytes twice), the same
// block as a lossless WebP whose first frame is the picture a screenshot of that step shows, a
// tensor-core rung, a lesson as a PNG series (a frame per step and per answer, as --lesson-walk
// saves them), the ladders climbing in presenter mode at 1920 × 1080, the window's own "Export
// animation…" (Ctrl+E, Enter), and bad input. Every file is decoded with the library that
// wrote it.
#include <gtest/gtest.h>
#include <gif_lib.h>
#include <webp/demux.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "gui_harness.hpp"
#include "model/ladder_rungs.hpp"

namespace {

namespace fs = std::filesystem;

constexpr const char* kTiledBlock = "--view theatre --kernel tiled --m 64 --n 64 --k 64 --tile 16";
// 64 / 16 = 4 phases of load, barrier, compute, barrier, then the store: 4 × 4 + 1 sub-steps.
constexpr int kTiledBlockFrames = 17;

std::string bytes_of(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct Decoded {
    int frames = 0, width = 0, height = 0;
    std::vector<ts::test::Image> images;  // composed frames (WebP), RGB
};

Decoded decode_gif(const std::string& path) {
    Decoded decoded;
    int error = 0;
    GifFileType* gif = DGifOpenFileName(path.c_str(), &error);
    if (!gif) {
        ADD_FAILURE() << "cannot open " << path << " as a GIF: " << GifErrorString(error);
        return decoded;
    }
    if (DGifSlurp(gif) != GIF_OK) ADD_FAILURE() << "cannot read " << path << ": " << GifErrorString(gif->Error);
    decoded.frames = gif->ImageCount;
    decoded.width = gif->SWidth;
    decoded.height = gif->SHeight;
    DGifCloseFile(gif, &error);
    return decoded;
}

// Every frame, composed as a viewer shows it (WebPAnimDecoder does the composing), as RGB.
Decoded decode_webp(const std::string& path) {
    Decoded decoded;
    const std::string data = bytes_of(path);
    WebPData webp{reinterpret_cast<const uint8_t*>(data.data()), data.size()};
    WebPAnimDecoderOptions options;
    WebPAnimDecoderOptionsInit(&options);
    options.color_mode = MODE_RGBA;
    WebPAnimDecoder* decoder = WebPAnimDecoderNew(&webp, &options);
    if (!decoder) {
        ADD_FAILURE() << "cannot decode " << path << " as an animated WebP";
        return decoded;
    }
    WebPAnimInfo info;
    WebPAnimDecoderGetInfo(decoder, &info);
    decoded.width = static_cast<int>(info.canvas_width);
    decoded.height = static_cast<int>(info.canvas_height);
    while (WebPAnimDecoderHasMoreFrames(decoder)) {
        uint8_t* rgba = nullptr;
        int timestamp = 0;
        if (!WebPAnimDecoderGetNext(decoder, &rgba, &timestamp)) break;
        ts::test::Image image{decoded.width, decoded.height, {}};
        image.pixels.reserve(static_cast<std::size_t>(decoded.width) * decoded.height * 3);
        for (std::size_t i = 0; i < static_cast<std::size_t>(decoded.width) * decoded.height; ++i)
            image.pixels.insert(image.pixels.end(), rgba + i * 4, rgba + i * 4 + 3);
        decoded.images.push_back(std::move(image));
    }
    decoded.frames = static_cast<int>(decoded.images.size());
    WebPAnimDecoderDelete(decoder);
    return decoded;
}

// The share of pixels in the box [x0, x1) × [y0, y1) (fractions of the size) that are the same in both.
double same_share(const ts::test::Image& a, const ts::test::Image& b, float x0, float y0, float x1, float y1) {
    if (a.width != b.width || a.height != b.height) return 0.0;
    int same = 0, all = 0;
    for (int y = static_cast<int>(y0 * a.height); y < static_cast<int>(y1 * a.height); ++y)
        for (int x = static_cast<int>(x0 * a.width); x < static_cast<int>(x1 * a.width); ++x, ++all)
            same += a.at(x, y) == b.at(x, y) ? 1 : 0;
    return all ? static_cast<double>(same) / all : 0.0;
}

int export_animation(const std::string& file, const std::string& args, std::string& output) {
    fs::remove_all(ts::test::out_path(file));
    return ts::test::run_in_window("--export-animation '" + ts::test::out_path(file) + "' " + args, output);
}

TEST(ExportAnimation, TheTiledBlockAsAGif) {
    std::string output;
    ASSERT_EQ(export_animation("export_tiled.gif", kTiledBlock, output), 0) << output;
    EXPECT_NE(output.find("Saved "), std::string::npos) << output;
    const std::string path = ts::test::out_path("export_tiled.gif");
    const Decoded gif = decode_gif(path);
    EXPECT_EQ(gif.frames, kTiledBlockFrames);
    EXPECT_EQ(gif.width, 1280);
    EXPECT_EQ(gif.height, 720);
    const auto size = fs::file_size(path);
    std::cout << "tiled block, 1280×720 GIF: " << gif.frames << " frames, " << size << " bytes\n";
    EXPECT_LE(size, 5u * 1000 * 1000);

    // Deterministic: the same flags give the same bytes.
    ASSERT_EQ(export_animation("export_tiled_again.gif", kTiledBlock, output), 0) << output;
    EXPECT_TRUE(bytes_of(path) == bytes_of(ts::test::out_path("export_tiled_again.gif")));
}

// Lossless, so the frames are the pictures drawn: the first is what a screenshot of the first
// sub-step shows in the canvas, the last what one of the store shows; the two differ.
TEST(ExportAnimation, TheWebpsFramesAreTheScreenshotsOfTheirSteps) {
    std::string output;
    ASSERT_EQ(export_animation("export_tiled.webp", kTiledBlock, output), 0) << output;
    const Decoded webp = decode_webp(ts::test::out_path("export_tiled.webp"));
    ASSERT_EQ(webp.frames, kTiledBlockFrames);
    EXPECT_EQ(webp.width, 1280);
    EXPECT_EQ(webp.height, 720);
    // In slide mode (F7), as the frames are: the view without the window's bars.
    const std::string at = std::string(kTiledBlock) + " --width 1280 --height 720 ";
    const auto first = ts::test::screenshot("export_first_step.png", at + "--phase 0 --step load --keys F7");
    // Pressing End from the first step, as a person would: the words above the picture keep the
    // first step's room, as in the animation, so the picture does not move.
    const auto last = ts::test::screenshot("export_last_step.png", at + "--keys F7,End");
    // The canvas, right of the side panel (whose Export button the frames leave out).
    EXPECT_GE(same_share(webp.images.front(), first, 0.45f, 0.1f, 1.0f, 0.9f), 0.99);
    EXPECT_GE(same_share(webp.images.back(), last, 0.45f, 0.1f, 1.0f, 0.9f), 0.99);
    EXPECT_LT(same_share(webp.images.front(), webp.images.back(), 0.45f, 0.1f, 1.0f, 0.9f), 0.99);
    std::cout << "tiled block, 1280×720 WebP: " << webp.frames << " frames, "
              << fs::file_size(ts::test::out_path("export_tiled.webp")) << " bytes\n";
}

// A tensor-core rung: its Source tab, a frame per statement of each K step.
TEST(ExportAnimation, ATensorCoreRungAsAGifAndAWebp) {
    std::string output;
    ASSERT_EQ(export_animation("export_wgmma.gif", "--view theatre --kernel wgmma", output), 0) << output;
    const Decoded gif = decode_gif(ts::test::out_path("export_wgmma.gif"));
    ASSERT_EQ(export_animation("export_wgmma.webp", "--view theatre --kernel wgmma", output), 0) << output;
    const Decoded webp = decode_webp(ts::test::out_path("export_wgmma.webp"));
    EXPECT_GE(gif.frames, 4);
    EXPECT_EQ(gif.frames, webp.frames);
    std::cout << "wgmma, 1280×720: GIF " << gif.frames << " frames, " << fs::file_size(ts::test::out_path("export_wgmma.gif"))
              << " bytes; WebP " << fs::file_size(ts::test::out_path("export_wgmma.webp")) << " bytes\n";
}

// A lesson: a frame per step and one per answer, as many as --lesson-walk saves pictures.
TEST(ExportAnimation, ALessonAsAPngSeries) {
    const fs::path walk = ts::test::out_path("export_walk");
    fs::remove_all(walk);
    std::string output;
    ASSERT_EQ(ts::test::run_in_window("--lesson tiling --width 1280 --height 720 --lesson-walk '" + walk.string() + "'",
                                      output),
              0)
        << output;
    const auto walked = std::distance(fs::directory_iterator(walk), fs::directory_iterator());
    const fs::path folder = ts::test::out_path("export_lesson");
    fs::remove_all(folder);
    fs::create_directories(folder);
    ASSERT_EQ(ts::test::run_in_window("--lesson tiling --export-animation '" + (folder / "tiling.png").string() + "'", output),
              0)
        << output;
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(folder)) files.push_back(entry.path().filename().string());
    std::sort(files.begin(), files.end());
    ASSERT_EQ(static_cast<long>(files.size()), walked) << output;
    EXPECT_EQ(files.front(), "tiling-0001.png");
    const auto first = ts::test::load_png((folder / files.front()).string());
    EXPECT_EQ(first.width, 1280);
    EXPECT_EQ(first.height, 720);
    EXPECT_GT(ts::test::distinct_colours(first), 100);
}

// The ladders climbing at a projector's size and text: a frame per rung, more bars on the last.
TEST(ExportAnimation, TheLaddersClimbInPresenterMode) {
    std::string output;
    ASSERT_EQ(export_animation("export_ladder.webp", "--view ladder --presenter --width 1920 --height 1080 --fps 1", output),
              0)
        << output;
    const Decoded webp = decode_webp(ts::test::out_path("export_ladder.webp"));
    EXPECT_EQ(webp.width, 1920);
    EXPECT_EQ(webp.height, 1080);
    // Every rung of both ladders, cuBLAS aside (drawn from the first frame on, the mark to reach).
    ASSERT_EQ(webp.frames, static_cast<int>(ts::model::ladder_rungs().size() + ts::model::tensor_core_rungs().size()));
    // Bars are saturated colours; the background and text are not.
    const auto coloured = [](ts::test::Rgb p) { return std::max({p.r, p.g, p.b}) - std::min({p.r, p.g, p.b}) > 60; };
    EXPECT_GT(webp.images.back().count_if(coloured), webp.images.front().count_if(coloured) + 10000);
}

// The window's own export: Ctrl+E opens "Export animation…" on the theatre, Enter starts it, and
// the dialog ends saying where the file went; the file holds a frame per sub-step.
TEST(ExportAnimation, TheWindowsExportDialog) {
    const std::string file = ts::test::out_path("tilescope-theatre-tiled.gif");
    fs::remove(file);
    std::string output;
    // The tests run in their build folder, where the dialog's default file name lands.
    const auto image = ts::test::screenshot("export_dialog.png", std::string(kTiledBlock) + " --keys ctrl+e,Enter", &output);
    EXPECT_GT(ts::test::distinct_colours(image), 100);
    ASSERT_TRUE(fs::exists(file)) << output;
    EXPECT_EQ(decode_gif(file).frames, kTiledBlockFrames);
}

// Escape while the frames are drawn cancels: the dialog says nothing was written, and nothing was.
TEST(ExportAnimation, ACancelledExportLeavesNoFile) {
    const fs::path folder = ts::test::out_path("");
    const auto leftovers = [&] {
        std::vector<std::string> found;
        for (const auto& entry : fs::directory_iterator(folder))
            if (entry.path().filename().string().find("tilescope-ladder") != std::string::npos)
                found.push_back(entry.path().filename().string());
        return found;
    };
    for (const std::string& name : leftovers()) fs::remove_all(folder / name);
    std::string output;
    ts::test::screenshot("export_cancelled.png", "--view ladder --keys ctrl+e,Enter,Escape", &output);
    EXPECT_TRUE(leftovers().empty()) << output;
    EXPECT_NE(output.find("Export cancelled: nothing was written"), std::string::npos) << output;
}

// With an ffmpeg program: MP4 and WebM, a frame per sub-step (ffprobe counts them).
TEST(ExportAnimation, VideoWithFfmpeg) {
    if (std::system("command -v ffprobe > /dev/null 2>&1") != 0) GTEST_SKIP() << "no ffmpeg/ffprobe installed";
    for (const char* file : {"export_tiled.mp4", "export_tiled.webm"}) {
        std::string output;
        ASSERT_EQ(export_animation(file, kTiledBlock, output), 0) << output;
        const std::string probe = "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                                  "stream=nb_read_frames,width,height -of csv=p=0 '" + ts::test::out_path(file) + "' > '" +
                                  ts::test::out_path(std::string(file) + ".txt") + "'";
        ASSERT_EQ(std::system(probe.c_str()), 0);
        std::cout << file << ": " << fs::file_size(ts::test::out_path(file)) << " bytes\n";
        EXPECT_EQ(bytes_of(ts::test::out_path(std::string(file) + ".txt")), "1280,720,17\n");
    }
}

TEST(ExportAnimation, BadInputGetsAClearMessage) {
    std::string output;
    EXPECT_EQ(export_animation("export.avi", kTiledBlock, output), 2);
    EXPECT_NE(output.find(".gif, .webp"), std::string::npos) << output;
    EXPECT_EQ(ts::test::run_in_window(std::string(kTiledBlock) + " --export-animation /no/such/folder/out.gif", output), 1);
    EXPECT_NE(output.find("/no/such/folder"), std::string::npos) << output;
    EXPECT_FALSE(fs::exists("/no/such/folder/out.gif"));
    EXPECT_EQ(export_animation("export_latency.gif", "--view latency", output), 2);
    EXPECT_NE(output.find("no steps to animate"), std::string::npos) << output;
    EXPECT_FALSE(fs::exists(ts::test::out_path("export_latency.gif")));
}

}  // namespace
