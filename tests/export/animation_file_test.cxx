// animation_file_test.cxx — app/export's writers, checked by decoding what they wrote with the same
// libraries (giflib, libwebpdemux, stb_image; ffprobe and ffmpeg for MP4 and WebM, skipped when
// there is no ffmpeg): frame counts, sizes, known pixels of the first and last frames, the same
// bytes from the same frames, cancels that leave nothing behind, and the messages for bad input.
#include <gif_lib.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>
#include <webp/demux.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

// Debian's libstb.so holds stb_image's implementation too: declarations only.
#include <stb_image.h>

#include "export/animation_file.hpp"

namespace {

namespace fs = std::filesystem;
using ts::exporting::AnimationFormat;
using ts::exporting::AnimationSettings;
using ts::exporting::AnimationWriter;
using ts::exporting::FinishedAnimation;

using Frame = std::vector<unsigned char>;  // RGB, rows top-down

struct Rgb {
    int r = 0, g = 0, b = 0;
};

std::ostream& operator<<(std::ostream& out, const Rgb& c) {
    return out << "(" << c.r << ", " << c.g << ", " << c.b << ")";
}

// A folder of the test's own under the system's temporary folder, removed at the end.
class ScratchFolder {
public:
    ScratchFolder() {
        static std::atomic<int> made{0};
        const auto* test = testing::UnitTest::GetInstance()->current_test_info();
        m_path = fs::temp_directory_path() / ("tilescope-export-" + std::string(test ? test->name() : "test") + "-" +
                                              std::to_string(getpid()) + "-" + std::to_string(++made));
        fs::remove_all(m_path);
        fs::create_directories(m_path);
    }
    ~ScratchFolder() {
        std::error_code ignored;
        fs::remove_all(m_path, ignored);
    }
    const fs::path& path() const { return m_path; }
    fs::path operator/(const std::string& name) const { return m_path / name; }

    // The names in the folder, hidden ones too, sorted.
    std::vector<std::string> names() const {
        std::vector<std::string> found;
        for (const auto& entry : fs::directory_iterator(m_path)) found.push_back(entry.path().filename().string());
        std::sort(found.begin(), found.end());
        return found;
    }

private:
    fs::path m_path;
};

// ---- Synthetic frames ------------------------------------------------------------------------

constexpr int kWidth = 160, kHeight = 90;
constexpr Rgb kBackground{30, 60, 90};
constexpr Rgb kSquare{220, 40, 40};
constexpr Rgb kLastBackground{240, 236, 200};
constexpr int kSquareSide = 30;

void fill(Frame& frame, int width, int x0, int y0, int w, int h, Rgb colour) {
    for (int y = y0; y < y0 + h; ++y)
        for (int x = x0; x < x0 + w; ++x) {
            unsigned char* pixel = frame.data() + 3 * (static_cast<std::size_t>(y) * width + x);
            pixel[0] = static_cast<unsigned char>(colour.r);
            pixel[1] = static_cast<unsigned char>(colour.g);
            pixel[2] = static_cast<unsigned char>(colour.b);
        }
}

Frame flat_with_square(Rgb background, int square_x, int square_y, int width = kWidth, int height = kHeight) {
    Frame frame(static_cast<std::size_t>(width) * height * 3);
    fill(frame, width, 0, 0, width, height, background);
    fill(frame, width, square_x, square_y, kSquareSide, kSquareSide, kSquare);
    return frame;
}

// 160 × 90 = 14400 colours: the GIF's palette has to quantize this one.
Frame gradient(int width = kWidth, int height = kHeight) {
    Frame frame(static_cast<std::size_t>(width) * height * 3);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            unsigned char* pixel = frame.data() + 3 * (static_cast<std::size_t>(y) * width + x);
            pixel[0] = static_cast<unsigned char>(x * 255 / (width - 1));
            pixel[1] = static_cast<unsigned char>(y * 255 / (height - 1));
            pixel[2] = static_cast<unsigned char>((x + y) % 64 + 96);
        }
    return frame;
}

// Five frames: a red square moving across a flat background, a gradient in the middle, and a
// last frame on another background. The pixels the tests check are far from the square's edges
// (video's chroma is half resolution).
std::vector<Frame> moving_square_frames(int width = kWidth, int height = kHeight) {
    return {flat_with_square(kBackground, 10, 10, width, height), flat_with_square(kBackground, 40, 20, width, height),
            gradient(width, height), flat_with_square(kBackground, 70, 30, width, height),
            flat_with_square(kLastBackground, 120, 50, width, height)};
}

struct KnownPixel {
    int x, y;
    Rgb colour;
};
const KnownPixel kFirstFramePixels[] = {{3, 80, kBackground}, {25, 25, kSquare}, {150, 5, kBackground}};
const KnownPixel kLastFramePixels[] = {{3, 80, kLastBackground}, {135, 65, kSquare}, {25, 25, kLastBackground}};

// An application window of sorts, 1280 × 720: a dark side panel with lines of "text", a title
// bar, a 16 × 16 grid of heat-map cells, and a status line. Frame k outlines cell k and changes
// the status line, so each frame differs from the one before in a few small places.
Frame ui_frame(int k, int width = 1280, int height = 720) {
    Frame frame(static_cast<std::size_t>(width) * height * 3);
    fill(frame, width, 0, 0, width, height, {245, 245, 242});
    fill(frame, width, 0, 0, width, 40, {32, 34, 40});
    fill(frame, width, 0, 40, 300, height - 40, {44, 48, 58});
    unsigned seed = 12345;
    auto next = [&seed] { return (seed = seed * 1103515245u + 12345u) >> 16; };
    for (int line = 0; line < 30; ++line) {
        int x = 16;
        const int y = 60 + line * 21;
        while (x < 280) {
            const int word = 6 + static_cast<int>(next() % 40);
            if (x + word > 284) break;
            fill(frame, width, x, y, word, 9, {200, 204, 212});
            x += word + 6;
        }
    }
    for (int row = 0; row < 16; ++row)
        for (int column = 0; column < 16; ++column) {
            const int level = (row * 7 + column * 3) % 16;
            const Rgb colour{20 + level * 14, 40 + level * 9, 200 - level * 11};
            fill(frame, width, 340 + column * 40, 60 + row * 40, 37, 37, colour);
        }
    const int cell = k % 256;
    const int cx = 340 + (cell % 16) * 40, cy = 60 + (cell / 16) * 40;
    fill(frame, width, cx - 2, cy - 2, 41, 3, {255, 140, 0});
    fill(frame, width, cx - 2, cy + 36, 41, 3, {255, 140, 0});
    fill(frame, width, cx - 2, cy - 2, 3, 41, {255, 140, 0});
    fill(frame, width, cx + 36, cy - 2, 3, 41, {255, 140, 0});
    for (int digit = 0; digit < 4; ++digit) {
        const int value = (k >> (digit * 2)) & 3;
        fill(frame, width, 1000 + digit * 30, 690, 8 + value * 6, 12, {60, 60, 60});
    }
    return frame;
}

// ---- Writing ---------------------------------------------------------------------------------

AnimationSettings settings_of(int width = kWidth, int height = kHeight, double seconds_per_frame = 0.5) {
    AnimationSettings settings;
    settings.width = width;
    settings.height = height;
    settings.seconds_per_frame = seconds_per_frame;
    return settings;
}

std::unique_ptr<AnimationWriter> open_or_fail(const fs::path& path, AnimationFormat format,
                                              const AnimationSettings& settings) {
    auto opened = AnimationWriter::open(path, format, settings);
    if (const auto* why = std::get_if<std::string>(&opened)) {
        ADD_FAILURE() << "cannot open " << path << ": " << *why;
        return nullptr;
    }
    return std::move(std::get<std::unique_ptr<AnimationWriter>>(opened));
}

// Writes `frames` and finishes; the result, or a failure of the test.
std::optional<FinishedAnimation> write_animation(const fs::path& path, AnimationFormat format,
                                                 const std::vector<Frame>& frames,
                                                 const AnimationSettings& settings = settings_of()) {
    auto writer = open_or_fail(path, format, settings);
    if (!writer) return std::nullopt;
    for (const Frame& frame : frames)
        if (const auto why = writer->add_frame(frame)) {
            ADD_FAILURE() << "add_frame: " << *why;
            return std::nullopt;
        }
    EXPECT_EQ(writer->frames_added(), static_cast<int>(frames.size()));
    auto finished = writer->finish();
    if (const auto* why = std::get_if<std::string>(&finished)) {
        ADD_FAILURE() << "finish: " << *why;
        return std::nullopt;
    }
    return std::get<FinishedAnimation>(finished);
}

std::string bytes_of(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// ---- Decoding --------------------------------------------------------------------------------

struct Decoded {
    int width = 0, height = 0;
    std::vector<Frame> frames;  // composed, RGB
    std::vector<int> delays_ms;
    bool loops_forever = false;

    Rgb at(std::size_t frame, int x, int y) const {
        const unsigned char* pixel = frames[frame].data() + 3 * (static_cast<std::size_t>(y) * width + x);
        return {pixel[0], pixel[1], pixel[2]};
    }
};

struct GifImageInfo {
    int left, top, width, height;
};

// Composes the GIF's frames as a viewer does: each image drawn at its place over what is shown,
// its GCB's transparent index left out. The writer uses "do not dispose" only.
Decoded decode_gif(const fs::path& file, std::vector<GifImageInfo>* images = nullptr) {
    Decoded decoded;
    int error = 0;
    GifFileType* gif = DGifOpenFileName(file.c_str(), &error);
    if (!gif) {
        ADD_FAILURE() << "DGifOpenFileName: " << GifErrorString(error);
        return decoded;
    }
    if (DGifSlurp(gif) == GIF_ERROR) {
        ADD_FAILURE() << "DGifSlurp: " << GifErrorString(gif->Error);
        DGifCloseFile(gif, &error);
        return decoded;
    }
    decoded.width = gif->SWidth;
    decoded.height = gif->SHeight;
    Frame canvas(static_cast<std::size_t>(decoded.width) * decoded.height * 3, 0);
    for (int i = 0; i < gif->ImageCount; ++i) {
        const SavedImage& image = gif->SavedImages[i];
        const GifImageDesc& desc = image.ImageDesc;
        if (images) images->push_back({desc.Left, desc.Top, desc.Width, desc.Height});
        GraphicsControlBlock control{};
        control.TransparentColor = NO_TRANSPARENT_COLOR;
        EXPECT_EQ(DGifSavedExtensionToGCB(gif, i, &control), GIF_OK) << "frame " << i << " has no GCB";
        EXPECT_EQ(control.DisposalMode, DISPOSE_DO_NOT);
        decoded.delays_ms.push_back(control.DelayTime * 10);
        const ColorMapObject* colours = desc.ColorMap ? desc.ColorMap : gif->SColorMap;
        EXPECT_TRUE(colours != nullptr);
        EXPECT_FALSE(desc.Interlace);
        if (!colours) break;
        for (int y = 0; y < desc.Height; ++y)
            for (int x = 0; x < desc.Width; ++x) {
                const int index = image.RasterBits[y * desc.Width + x];
                if (index == control.TransparentColor) continue;
                EXPECT_LT(index, colours->ColorCount);
                unsigned char* pixel =
                    canvas.data() + 3 * (static_cast<std::size_t>(desc.Top + y) * decoded.width + desc.Left + x);
                pixel[0] = colours->Colors[index].Red;
                pixel[1] = colours->Colors[index].Green;
                pixel[2] = colours->Colors[index].Blue;
            }
        decoded.frames.push_back(canvas);
    }
    // giflib attaches the extensions before an image to that image: the loop is the first's.
    if (gif->ImageCount > 0) {
        const SavedImage& first = gif->SavedImages[0];
        for (int b = 0; b + 1 < first.ExtensionBlockCount; ++b) {
            const ExtensionBlock& block = first.ExtensionBlocks[b];
            const ExtensionBlock& data = first.ExtensionBlocks[b + 1];
            if (block.Function == APPLICATION_EXT_FUNC_CODE && block.ByteCount == 11 &&
                std::memcmp(block.Bytes, "NETSCAPE2.0", 11) == 0 && data.ByteCount == 3 && data.Bytes[0] == 1 &&
                data.Bytes[1] == 0 && data.Bytes[2] == 0)
                decoded.loops_forever = true;
        }
    }
    DGifCloseFile(gif, &error);
    return decoded;
}

Decoded decode_webp(const fs::path& file) {
    Decoded decoded;
    const std::string bytes = bytes_of(file);
    WebPData data;
    WebPDataInit(&data);
    data.bytes = reinterpret_cast<const std::uint8_t*>(bytes.data());
    data.size = bytes.size();
    WebPAnimDecoderOptions options;
    if (!WebPAnimDecoderOptionsInit(&options)) {
        ADD_FAILURE() << "WebPAnimDecoderOptionsInit";
        return decoded;
    }
    options.color_mode = MODE_RGBA;
    options.use_threads = 0;
    WebPAnimDecoder* decoder = WebPAnimDecoderNew(&data, &options);
    if (!decoder) {
        ADD_FAILURE() << "WebPAnimDecoderNew: not an animated WebP: " << file;
        return decoded;
    }
    WebPAnimInfo info;
    if (!WebPAnimDecoderGetInfo(decoder, &info)) {
        ADD_FAILURE() << "WebPAnimDecoderGetInfo";
        WebPAnimDecoderDelete(decoder);
        return decoded;
    }
    decoded.width = static_cast<int>(info.canvas_width);
    decoded.height = static_cast<int>(info.canvas_height);
    decoded.loops_forever = info.loop_count == 0;
    int previous_end = 0;
    while (WebPAnimDecoderHasMoreFrames(decoder)) {
        std::uint8_t* rgba = nullptr;
        int end_ms = 0;  // the time this frame ends
        if (!WebPAnimDecoderGetNext(decoder, &rgba, &end_ms)) {
            ADD_FAILURE() << "WebPAnimDecoderGetNext";
            break;
        }
        Frame frame(static_cast<std::size_t>(decoded.width) * decoded.height * 3);
        for (std::size_t i = 0; i < frame.size() / 3; ++i) {
            EXPECT_EQ(rgba[4 * i + 3], 255) << "a transparent pixel in a composed frame";
            std::memcpy(frame.data() + 3 * i, rgba + 4 * i, 3);
        }
        decoded.frames.push_back(std::move(frame));
        decoded.delays_ms.push_back(end_ms - previous_end);
        previous_end = end_ms;
    }
    WebPAnimDecoderDelete(decoder);
    return decoded;
}

Decoded decode_png_series(const std::vector<fs::path>& files) {
    Decoded decoded;
    for (const fs::path& file : files) {
        int width = 0, height = 0, channels = 0;
        unsigned char* pixels = stbi_load(file.c_str(), &width, &height, &channels, 3);
        if (!pixels) {
            ADD_FAILURE() << "stbi_load " << file << ": " << stbi_failure_reason();
            break;
        }
        EXPECT_EQ(channels, 3) << file;
        decoded.width = width;
        decoded.height = height;
        decoded.frames.emplace_back(pixels, pixels + static_cast<std::size_t>(width) * height * 3);
        stbi_image_free(pixels);
    }
    return decoded;
}

// Runs a shell command and gives back its stdout (the paths quoted here are the tests' own).
std::string output_of(const std::string& command) {
    std::string output;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) return output;
    char buffer[65536];
    for (std::size_t got; (got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) output.append(buffer, got);
    pclose(pipe);
    return output;
}

std::string quoted(const fs::path& path) { return "'" + path.string() + "'"; }

// MP4 and WebM: ffprobe counts the frames and gives the size; ffmpeg decodes every frame to rgb24.
Decoded decode_video(const fs::path& file) {
    Decoded decoded;
    const std::string probe =
        output_of("ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames,width,height "
                  "-of csv=p=0 " + quoted(file));
    int frames = 0;
    if (std::sscanf(probe.c_str(), "%d,%d,%d", &decoded.width, &decoded.height, &frames) != 3) {
        ADD_FAILURE() << "ffprobe said: " << probe;
        return decoded;
    }
    const std::string raw =
        output_of("ffmpeg -hide_banner -v error -nostdin -i " + quoted(file) +
                  " -fps_mode passthrough -f rawvideo -pix_fmt rgb24 -");
    const std::size_t frame_bytes = static_cast<std::size_t>(decoded.width) * decoded.height * 3;
    EXPECT_EQ(raw.size(), frame_bytes * frames) << "ffmpeg decoded a different number of frames than ffprobe counted";
    for (std::size_t at = 0; at + frame_bytes <= raw.size(); at += frame_bytes)
        decoded.frames.emplace_back(raw.begin() + static_cast<std::ptrdiff_t>(at),
                                    raw.begin() + static_cast<std::ptrdiff_t>(at + frame_bytes));
    return decoded;
}

void expect_pixels(const Decoded& decoded, std::size_t frame, std::span<const KnownPixel> pixels, int tolerance) {
    ASSERT_LT(frame, decoded.frames.size());
    for (const KnownPixel& known : pixels) {
        const Rgb got = decoded.at(frame, known.x, known.y);
        EXPECT_LE(std::abs(got.r - known.colour.r), tolerance) << "frame " << frame << " at " << known.x << ","
                                                                << known.y << ": " << got << " for " << known.colour;
        EXPECT_LE(std::abs(got.g - known.colour.g), tolerance) << "frame " << frame << " at " << known.x << ","
                                                                << known.y << ": " << got << " for " << known.colour;
        EXPECT_LE(std::abs(got.b - known.colour.b), tolerance) << "frame " << frame << " at " << known.x << ","
                                                                << known.y << ": " << got << " for " << known.colour;
    }
}

// The largest difference of any channel of any pixel.
int largest_difference(const Frame& a, const Frame& b) {
    int largest = 0;
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) largest = std::max(largest, std::abs(a[i] - b[i]));
    return largest;
}

const AnimationFormat kAllFormats[] = {AnimationFormat::Gif, AnimationFormat::Webp, AnimationFormat::PngSeries,
                                       AnimationFormat::Mp4, AnimationFormat::Webm};

std::string file_name_for(AnimationFormat format, const std::string& stem = "out") {
    return stem + std::string(ts::exporting::format_extension(format));
}

// Sets PATH for the life of the object and puts the old one back.
class PathForTest {
public:
    explicit PathForTest(const std::string& path) {
        if (const char* old = std::getenv("PATH")) m_old = old;
        setenv("PATH", path.c_str(), 1);
    }
    ~PathForTest() {
        if (m_old) setenv("PATH", m_old->c_str(), 1);
        else unsetenv("PATH");
    }

private:
    std::optional<std::string> m_old;
};

// ---- Names and extensions ---------------------------------------------------------------------

TEST(AnimationFile, NamesAndExtensions) {
    EXPECT_EQ(ts::exporting::format_name(AnimationFormat::Gif), "GIF");
    EXPECT_EQ(ts::exporting::format_name(AnimationFormat::Webp), "WebP");
    EXPECT_EQ(ts::exporting::format_name(AnimationFormat::PngSeries), "PNG series");
    EXPECT_EQ(ts::exporting::format_name(AnimationFormat::Mp4), "MP4");
    EXPECT_EQ(ts::exporting::format_name(AnimationFormat::Webm), "WebM");
    for (const AnimationFormat format : kAllFormats) {
        const auto found = ts::exporting::format_of_path(fs::path("dir") / file_name_for(format));
        ASSERT_TRUE(std::holds_alternative<AnimationFormat>(found)) << std::get<std::string>(found);
        EXPECT_EQ(std::get<AnimationFormat>(found), format);
    }
}

TEST(AnimationFile, FormatOfPathIgnoresCaseAndNamesTheKnownExtensions) {
    EXPECT_EQ(std::get<AnimationFormat>(ts::exporting::format_of_path("Lesson.GIF")), AnimationFormat::Gif);
    EXPECT_EQ(std::get<AnimationFormat>(ts::exporting::format_of_path("/a/b.WebM")), AnimationFormat::Webm);
    EXPECT_EQ(std::get<AnimationFormat>(ts::exporting::format_of_path("x.Png")), AnimationFormat::PngSeries);
    const auto avi = ts::exporting::format_of_path("out.avi");
    ASSERT_TRUE(std::holds_alternative<std::string>(avi));
    EXPECT_EQ(std::get<std::string>(avi),
              "out.avi: TileScope exports .gif, .webp, .png (a numbered series), .mp4 and .webm");
    const auto bare = ts::exporting::format_of_path("animation");
    ASSERT_TRUE(std::holds_alternative<std::string>(bare));
    EXPECT_NE(std::get<std::string>(bare).find(".gif, .webp"), std::string::npos);
}

// ---- Each format, decoded ----------------------------------------------------------------------

// Writes `frames` to folder/name, checks what finish() reports and that the folder holds that file
// alone, and decodes it with `decode`: its size, frame count, looping and 0.5 s a frame checked.
template <typename Decode>
Decoded write_and_decode(const ScratchFolder& folder, const std::string& name, AnimationFormat format,
                         const std::vector<Frame>& frames, Decode decode) {
    const auto finished = write_animation(folder / name, format, frames);
    if (!finished) {
        ADD_FAILURE() << name << " was not written";
        return {};
    }
    EXPECT_EQ(finished->files, std::vector<fs::path>{folder / name});
    EXPECT_EQ(finished->frames, static_cast<int>(frames.size()));
    EXPECT_EQ(finished->bytes, fs::file_size(folder / name));
    EXPECT_EQ(folder.names(), std::vector<std::string>{name});
    const Decoded decoded = decode(folder / name);
    EXPECT_EQ(decoded.width, kWidth);
    EXPECT_EQ(decoded.height, kHeight);
    EXPECT_EQ(decoded.frames.size(), frames.size());
    EXPECT_TRUE(decoded.loops_forever);
    for (const int delay : decoded.delays_ms) EXPECT_EQ(delay, 500);
    return decoded;
}


TEST(AnimationFile, GifDecodesToTheFramesWritten) {
    ScratchFolder folder;
    const auto frames = moving_square_frames();
    const Decoded decoded =
        write_and_decode(folder, "out.gif", AnimationFormat::Gif, frames, [](const fs::path& p) { return decode_gif(p); });
    ASSERT_EQ(decoded.frames.size(), 5u);
    // Flat colours come out exact; the gradient only close (255 colours for 14400).
    expect_pixels(decoded, 0, kFirstFramePixels, 0);
    expect_pixels(decoded, 4, kLastFramePixels, 0);
    EXPECT_EQ(largest_difference(decoded.frames[0], frames[0]), 0);
    EXPECT_EQ(largest_difference(decoded.frames[3], frames[3]), 0);
    EXPECT_EQ(largest_difference(decoded.frames[4], frames[4]), 0);
    EXPECT_LE(largest_difference(decoded.frames[2], frames[2]), 40);
}

TEST(AnimationFile, GifWritesOnlyWhatChangedAndKeepsAnUnchangedFrame) {
    ScratchFolder folder;
    const Frame a = flat_with_square(kBackground, 10, 10);
    const Frame b = flat_with_square(kBackground, 12, 10);
    const auto finished =
        write_animation(folder / "out.gif", AnimationFormat::Gif, {a, a, b}, settings_of(kWidth, kHeight, 0.004));
    ASSERT_TRUE(finished);
    std::vector<GifImageInfo> images;
    const Decoded decoded = decode_gif(folder / "out.gif", &images);
    ASSERT_EQ(images.size(), 3u);
    EXPECT_EQ(images[0].width, kWidth);
    EXPECT_EQ(images[0].height, kHeight);
    // The same frame again: one transparent pixel, so the count and timing stay right.
    EXPECT_EQ(images[1].width, 1);
    EXPECT_EQ(images[1].height, 1);
    // The square moved 2 pixels right: columns 10-11 became background, 40-41 square.
    EXPECT_EQ(images[2].left, 10);
    EXPECT_EQ(images[2].top, 10);
    EXPECT_EQ(images[2].width, 32);
    EXPECT_EQ(images[2].height, kSquareSide);
    ASSERT_EQ(decoded.frames.size(), 3u);
    EXPECT_EQ(largest_difference(decoded.frames[1], a), 0);
    EXPECT_EQ(largest_difference(decoded.frames[2], b), 0);
    // 0.004 s rounds to 0 centiseconds, which browsers would play at 100 ms: at least 2.
    for (const int delay : decoded.delays_ms) EXPECT_EQ(delay, 20);
}

TEST(AnimationFile, WebpDecodesToTheFramesWritten) {
    ScratchFolder folder;
    const auto frames = moving_square_frames();
    const Decoded decoded =
        write_and_decode(folder, "out.webp", AnimationFormat::Webp, frames, [](const fs::path& p) { return decode_webp(p); });
    ASSERT_EQ(decoded.frames.size(), 5u);
    // Lossless: every frame exact, the gradient too.
    for (std::size_t i = 0; i < frames.size(); ++i) EXPECT_EQ(largest_difference(decoded.frames[i], frames[i]), 0) << i;
    expect_pixels(decoded, 0, kFirstFramePixels, 0);
    expect_pixels(decoded, 4, kLastFramePixels, 0);
}

TEST(AnimationFile, PngSeriesDecodesToTheFramesWritten) {
    ScratchFolder folder;
    const auto frames = moving_square_frames();
    const auto finished = write_animation(folder / "out.png", AnimationFormat::PngSeries, frames);
    ASSERT_TRUE(finished);
    const std::vector<fs::path> expected = {folder / "out-0001.png", folder / "out-0002.png", folder / "out-0003.png",
                                            folder / "out-0004.png", folder / "out-0005.png"};
    EXPECT_EQ(finished->files, expected);
    EXPECT_EQ(finished->frames, 5);
    std::uintmax_t bytes = 0;
    for (const auto& file : expected) bytes += fs::file_size(file);
    EXPECT_EQ(finished->bytes, bytes);
    EXPECT_EQ(folder.names(), (std::vector<std::string>{"out-0001.png", "out-0002.png", "out-0003.png", "out-0004.png",
                                                        "out-0005.png"}));

    const Decoded decoded = decode_png_series(finished->files);
    EXPECT_EQ(decoded.width, kWidth);
    EXPECT_EQ(decoded.height, kHeight);
    ASSERT_EQ(decoded.frames.size(), 5u);
    for (std::size_t i = 0; i < frames.size(); ++i) EXPECT_EQ(largest_difference(decoded.frames[i], frames[i]), 0) << i;
    expect_pixels(decoded, 0, kFirstFramePixels, 0);
    expect_pixels(decoded, 4, kLastFramePixels, 0);
}

// H.264 and VP9 at 4:2:0 change colours a little: a few levels of tolerance for flat colours.
constexpr int kVideoTolerance = 10;

// Skipped where this machine cannot write `format` (MP4 and WebM want ffmpeg).
void check_video(AnimationFormat format) {
    if (const auto why = ts::exporting::why_unavailable(format)) GTEST_SKIP() << *why;
    ScratchFolder folder;
    const std::string name = file_name_for(format);
    const auto frames = moving_square_frames();
    const auto finished = write_animation(folder / name, format, frames);
    ASSERT_TRUE(finished);
    ASSERT_EQ(finished->files, std::vector<fs::path>{folder / name});
    EXPECT_EQ(finished->frames, 5);
    EXPECT_EQ(finished->bytes, fs::file_size(folder / name));
    EXPECT_EQ(folder.names(), std::vector<std::string>{name});

    const Decoded decoded = decode_video(folder / name);
    EXPECT_EQ(decoded.width, kWidth);
    EXPECT_EQ(decoded.height, kHeight);
    ASSERT_EQ(decoded.frames.size(), 5u);
    expect_pixels(decoded, 0, kFirstFramePixels, kVideoTolerance);
    expect_pixels(decoded, 4, kLastFramePixels, kVideoTolerance);
}

TEST(AnimationFile, Mp4DecodesToTheFramesWritten) { check_video(AnimationFormat::Mp4); }
TEST(AnimationFile, WebmDecodesToTheFramesWritten) { check_video(AnimationFormat::Webm); }

TEST(AnimationFile, VideoOfAnOddSizeIsPaddedToEven) {
    if (const auto why = ts::exporting::why_unavailable(AnimationFormat::Mp4)) GTEST_SKIP() << *why;
    ScratchFolder folder;
    const auto frames = moving_square_frames(kWidth + 1, kHeight + 1);
    const auto finished = write_animation(folder / "odd.mp4", AnimationFormat::Mp4, frames,
                                          settings_of(kWidth + 1, kHeight + 1));
    ASSERT_TRUE(finished);
    const Decoded decoded = decode_video(folder / "odd.mp4");
    EXPECT_EQ(decoded.width, kWidth + 2);
    EXPECT_EQ(decoded.height, kHeight + 2);
    ASSERT_EQ(decoded.frames.size(), 5u);
    expect_pixels(decoded, 4, kLastFramePixels, kVideoTolerance);
}

// ---- The same frames, the same bytes -----------------------------------------------------------

// Each format's files written twice from the same frames, in two folders (the names inside a
// file must not depend on the temporary's name either). Skipped where this machine cannot write
// `format`.
void expect_same_bytes_twice(AnimationFormat format) {
    if (const auto why = ts::exporting::why_unavailable(format)) GTEST_SKIP() << *why;
    ScratchFolder first, second;
    const std::string name = file_name_for(format);
    const auto frames = moving_square_frames();
    const auto one = write_animation(first / name, format, frames);
    const auto two = write_animation(second / name, format, frames);
    ASSERT_TRUE(one && two);
    ASSERT_EQ(one->files.size(), two->files.size());
    for (std::size_t i = 0; i < one->files.size(); ++i) {
        EXPECT_EQ(one->files[i].filename(), two->files[i].filename());
        EXPECT_TRUE(bytes_of(one->files[i]) == bytes_of(two->files[i]))
            << one->files[i] << " and " << two->files[i] << " differ";
    }
}

TEST(AnimationFile, GifIsTheSameBytesTwice) { expect_same_bytes_twice(AnimationFormat::Gif); }
TEST(AnimationFile, WebpIsTheSameBytesTwice) { expect_same_bytes_twice(AnimationFormat::Webp); }
TEST(AnimationFile, PngSeriesIsTheSameBytesTwice) { expect_same_bytes_twice(AnimationFormat::PngSeries); }
// Holds with -threads 1 and the bitexact flags (ffmpeg_writer.cxx).
TEST(AnimationFile, Mp4IsTheSameBytesTwice) { expect_same_bytes_twice(AnimationFormat::Mp4); }
TEST(AnimationFile, WebmIsTheSameBytesTwice) { expect_same_bytes_twice(AnimationFormat::Webm); }

// ---- Cancels and failures leave nothing ----------------------------------------------------------

// Runs `check` for each format this machine writes (MP4 and WebM want ffmpeg), the format named in
// any failure.
template <typename Check>
void for_each_writable_format(Check check) {
    for (const AnimationFormat format : kAllFormats) {
        if (ts::exporting::why_unavailable(format)) continue;
        SCOPED_TRACE(std::string(ts::exporting::format_name(format)));
        check(format);
    }
}

TEST(AnimationFile, ACancelLeavesNothingInTheFolder) {
    for_each_writable_format([&](AnimationFormat format) {
        ScratchFolder folder;
        const auto frames = moving_square_frames();
        {
            auto writer = open_or_fail(folder / file_name_for(format), format, settings_of());
            ASSERT_TRUE(writer);
            ASSERT_FALSE(writer->add_frame(frames[0]));
            ASSERT_FALSE(writer->add_frame(frames[1]));
            EXPECT_EQ(writer->frames_added(), 2);
            // Before finish(), nothing under the final name.
            EXPECT_FALSE(fs::exists(folder / file_name_for(format)));
            EXPECT_FALSE(fs::exists(folder / "out-0001.png"));
        }
        EXPECT_EQ(folder.names(), std::vector<std::string>{});
    });
}

TEST(AnimationFile, ZeroFramesIsAnErrorAndLeavesNothing) {
    for_each_writable_format([&](AnimationFormat format) {
        ScratchFolder folder;
        auto writer = open_or_fail(folder / file_name_for(format), format, settings_of());
        ASSERT_TRUE(writer);
        const auto finished = writer->finish();
        ASSERT_TRUE(std::holds_alternative<std::string>(finished));
        EXPECT_EQ(std::get<std::string>(finished), "no frames to export");
        // Cleared at once, not only when the writer goes.
        EXPECT_EQ(folder.names(), std::vector<std::string>{});
        writer.reset();
        EXPECT_EQ(folder.names(), std::vector<std::string>{});
    });
}

TEST(AnimationFile, AFrameOfTheWrongSizeIsRefusedAndTheWriterGoesOn) {
    for_each_writable_format([&](AnimationFormat format) {
        ScratchFolder folder;
        auto writer = open_or_fail(folder / file_name_for(format), format, settings_of());
        ASSERT_TRUE(writer);
        const Frame short_frame(kWidth * kHeight * 3 - 1);
        const auto why = writer->add_frame(short_frame);
        ASSERT_TRUE(why);
        EXPECT_EQ(*why, "frame 1 has 43199 bytes; a 160×90 RGB frame has 43200 (width × height × 3)");
        EXPECT_EQ(writer->frames_added(), 0);
        ASSERT_FALSE(writer->add_frame(flat_with_square(kBackground, 10, 10)));
        const auto finished = writer->finish();
        ASSERT_TRUE(std::holds_alternative<FinishedAnimation>(finished)) << std::get<std::string>(finished);
        EXPECT_EQ(std::get<FinishedAnimation>(finished).frames, 1);
    });
}

TEST(AnimationFile, AFolderThatDoesNotExistIsNamed) {
    ScratchFolder folder;
    for_each_writable_format([&](AnimationFormat format) {
        auto opened = AnimationWriter::open(folder / "missing" / file_name_for(format), format, settings_of());
        ASSERT_TRUE(std::holds_alternative<std::string>(opened));
        EXPECT_EQ(std::get<std::string>(opened),
                  "cannot write in " + (folder / "missing").string() + ": No such file or directory");
    });
    EXPECT_EQ(folder.names(), std::vector<std::string>{});
}

TEST(AnimationFile, AParentThatIsAFileIsNamed) {
    ScratchFolder folder;
    std::ofstream(folder / "notes.txt") << "a file, not a folder\n";
    for_each_writable_format([&](AnimationFormat format) {
        auto opened = AnimationWriter::open(folder / "notes.txt" / file_name_for(format), format, settings_of());
        ASSERT_TRUE(std::holds_alternative<std::string>(opened));
        EXPECT_EQ(std::get<std::string>(opened),
                  "cannot write in " + (folder / "notes.txt").string() + ": Not a directory");
    });
    EXPECT_EQ(folder.names(), std::vector<std::string>{"notes.txt"});
}

TEST(AnimationFile, APathThatIsAFolderIsRefused) {
    ScratchFolder folder;
    fs::create_directory(folder / "frames.gif");
    auto opened = AnimationWriter::open(folder / "frames.gif", AnimationFormat::Gif, settings_of());
    ASSERT_TRUE(std::holds_alternative<std::string>(opened));
    EXPECT_EQ(std::get<std::string>(opened),
              (folder / "frames.gif").string() + " is a folder: name a file in it to export to");
}

TEST(AnimationFile, SettingsOutOfRangeAreRefused) {
    ScratchFolder folder;
    const auto refused = [&](const AnimationSettings& settings) {
        auto opened = AnimationWriter::open(folder / "out.gif", AnimationFormat::Gif, settings);
        return std::holds_alternative<std::string>(opened) ? std::get<std::string>(opened) : std::string();
    };
    EXPECT_EQ(refused(settings_of(0, 90)), "an animation's frames must be 1 to 16384 pixels a side, not 0×90");
    EXPECT_EQ(refused(settings_of(160, 16385)),
              "an animation's frames must be 1 to 16384 pixels a side, not 160×16385");
    EXPECT_NE(refused(settings_of(160, 90, 0.0)).find("more than 0 and at most 60 seconds"), std::string::npos);
    EXPECT_NE(refused(settings_of(160, 90, 61.0)).find("more than 0 and at most 60 seconds"), std::string::npos);
    EXPECT_NE(refused(settings_of(160, 90, std::numeric_limits<double>::quiet_NaN())).find("at most 60 seconds"),
              std::string::npos);
    EXPECT_EQ(refused(settings_of(1, 1, 60.0)), "");
    // WebP's own limit is one pixel less.
    auto webp = AnimationWriter::open(folder / "out.webp", AnimationFormat::Webp, settings_of(16384, 10));
    ASSERT_TRUE(std::holds_alternative<std::string>(webp));
    EXPECT_NE(std::get<std::string>(webp).find("at most 16383 pixels"), std::string::npos);
    EXPECT_EQ(folder.names(), std::vector<std::string>{});
}

// ---- ffmpeg: missing, or failing ---------------------------------------------------------------

TEST(AnimationFile, WithoutFfmpegVideoIsUnavailable) {
    ScratchFolder empty;
    const PathForTest path(empty.path().string());
    for (const AnimationFormat format : {AnimationFormat::Mp4, AnimationFormat::Webm}) {
        const auto why = ts::exporting::why_unavailable(format);
        ASSERT_TRUE(why);
        EXPECT_EQ(*why, "no ffmpeg program on the PATH: install ffmpeg for MP4 and WebM");
        auto opened = AnimationWriter::open(empty / file_name_for(format), format, settings_of());
        ASSERT_TRUE(std::holds_alternative<std::string>(opened));
        EXPECT_EQ(std::get<std::string>(opened), *why);
    }
    EXPECT_FALSE(ts::exporting::why_unavailable(AnimationFormat::Gif));
}

// Puts a shell script called ffmpeg first on the PATH for the life of the object.
class FakeFfmpeg {
public:
    explicit FakeFfmpeg(const std::string& script) {
        {
            std::ofstream file(m_bin / "ffmpeg");
            file << "#!/bin/sh\n" << script;
        }
        fs::permissions(m_bin / "ffmpeg", fs::perms::owner_all);
        m_path.emplace(m_bin.path().string() + ":/usr/bin:/bin");
    }

private:
    ScratchFolder m_bin;
    std::optional<PathForTest> m_path;
};

// 640 × 480 × 3 bytes a frame: more than a pipe holds, so a write meets a closed pipe.
const AnimationSettings kLargerThanAPipe = settings_of(640, 480);

// An ffmpeg that reads nothing and fails: the first write fails with EPIPE (the test would die
// of SIGPIPE otherwise), its words come back, the failure is final and nothing is left.
TEST(AnimationFile, AnFfmpegThatStopsAtOnceGivesItsMessageAndLeavesNothing) {
    const FakeFfmpeg ffmpeg("echo 'Unknown encoder for this test' >&2\nexit 1\n");
    ScratchFolder folder;
    auto writer = open_or_fail(folder / "out.mp4", AnimationFormat::Mp4, kLargerThanAPipe);
    ASSERT_TRUE(writer);
    const Frame frame(640 * 480 * 3, 100);
    const auto why = writer->add_frame(frame);
    ASSERT_TRUE(why);
    EXPECT_EQ(*why, "ffmpeg could not write MP4 " + (folder / "out.mp4").string() +
                        " (at frame 1): Unknown encoder for this test");
    EXPECT_EQ(writer->frames_added(), 0);
    EXPECT_EQ(writer->add_frame(frame), why);
    const auto finished = writer->finish();
    ASSERT_TRUE(std::holds_alternative<std::string>(finished));
    EXPECT_EQ(std::get<std::string>(finished), *why);
    EXPECT_EQ(folder.names(), std::vector<std::string>{});
}

// An ffmpeg that takes every frame and fails at the end: finish() gives its words.
TEST(AnimationFile, AnFfmpegThatFailsAtTheEndGivesItsMessageAndLeavesNothing) {
    const FakeFfmpeg ffmpeg("cat >/dev/null\necho 'Could not write header for this test' >&2\nexit 1\n");
    ScratchFolder folder;
    auto writer = open_or_fail(folder / "out.webm", AnimationFormat::Webm, kLargerThanAPipe);
    ASSERT_TRUE(writer);
    const Frame frame(640 * 480 * 3, 100);
    for (int i = 0; i < 3; ++i) ASSERT_FALSE(writer->add_frame(frame));
    const auto finished = writer->finish();
    ASSERT_TRUE(std::holds_alternative<std::string>(finished));
    EXPECT_EQ(std::get<std::string>(finished),
              "ffmpeg could not write WebM " + (folder / "out.webm").string() +
                  ": Could not write header for this test");
    EXPECT_EQ(folder.names(), std::vector<std::string>{});
}

// ---- Sizes and times of a UI animation ---------------------------------------------------------

// 20 frames of 1280 × 720 where each differs from the one before in a few small places: only the
// changed rectangles are stored, so the GIF stays far below 20 whole frames.
TEST(AnimationFile, AGifOfSmallChangesStaysSmall) {
    ScratchFolder folder;
    std::vector<Frame> frames;
    for (int k = 0; k < 20; ++k) frames.push_back(ui_frame(k));
    const auto start = std::chrono::steady_clock::now();
    const auto finished = write_animation(folder / "ui.gif", AnimationFormat::Gif, frames, settings_of(1280, 720));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_TRUE(finished);
    std::cout << "20-frame 1280x720 UI GIF: " << finished->bytes << " bytes, written in " << seconds * 1000 << " ms\n";
    RecordProperty("gif_bytes", std::to_string(finished->bytes));
    EXPECT_LT(finished->bytes, 2u * 1024 * 1024);

    const Decoded decoded = decode_gif(folder / "ui.gif");
    ASSERT_EQ(decoded.frames.size(), 20u);
    // Under 255 colours, each in its own 5-bit bin: exact.
    EXPECT_EQ(largest_difference(decoded.frames[19], frames[19]), 0);
    EXPECT_EQ(largest_difference(decoded.frames[0], frames[0]), 0);
}

// The same frames as a lossless WebP: how long each frame takes to add (the encoder's method was
// chosen for this; webp_writer.cxx), and the size.
TEST(AnimationFile, AWebpOfSmallChangesEncodesQuickly) {
    ScratchFolder folder;
    std::vector<Frame> frames;
    for (int k = 0; k < 20; ++k) frames.push_back(ui_frame(k));
    auto writer = open_or_fail(folder / "ui.webp", AnimationFormat::Webp, settings_of(1280, 720));
    ASSERT_TRUE(writer);
    double slowest = 0.0;
    const auto start = std::chrono::steady_clock::now();
    for (const Frame& frame : frames) {
        const auto before = std::chrono::steady_clock::now();
        ASSERT_FALSE(writer->add_frame(frame));
        slowest = std::max(slowest, std::chrono::duration<double>(std::chrono::steady_clock::now() - before).count());
    }
    const auto finished = writer->finish();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_TRUE(std::holds_alternative<FinishedAnimation>(finished)) << std::get<std::string>(finished);
    const auto bytes = std::get<FinishedAnimation>(finished).bytes;
    std::cout << "20-frame 1280x720 UI WebP: " << bytes << " bytes, " << seconds * 1000 / 20
              << " ms a frame on average, slowest add_frame " << slowest * 1000 << " ms\n";
    RecordProperty("webp_bytes", std::to_string(bytes));
    EXPECT_LT(bytes, 2u * 1024 * 1024);
    const Decoded decoded = decode_webp(folder / "ui.webp");
    ASSERT_EQ(decoded.frames.size(), 20u);
    EXPECT_EQ(largest_difference(decoded.frames[19], frames[19]), 0);
}

}  // namespace
