// animation_file.hpp — writes an animation (GIF, animated WebP, a numbered PNG series, MP4 or
// WebM) from RGB frames handed over one at a time. Plain C++ with giflib, libwebp, stb and an
// optional ffmpeg program: no GPU, no OpenGL, no window, so the cpu tests decode what it writes.
//
// A writer checks the path and settings when it opens, takes frames, and moves the finished file
// into place under its final name only in finish(), renamed from a temporary in the same folder:
// nothing ever appears under the final name half-written. Destroyed without finish(), it cancels
// and removes every temporary it made.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ts::exporting {

enum class AnimationFormat { Gif, Webp, PngSeries, Mp4, Webm };

// "GIF", "WebP", "PNG series", "MP4", "WebM": for menus and messages.
std::string_view format_name(AnimationFormat format);
// ".gif", ".webp", ".png", ".mp4", ".webm": what a file of the format is called.
std::string_view format_extension(AnimationFormat format);
// The format a path asks for, from its extension (any case); otherwise a sentence that names
// the extensions known: "out.avi: TileScope exports .gif, .webp, .png (a numbered series),
// .mp4 and .webm".
std::variant<AnimationFormat, std::string> format_of_path(const std::filesystem::path& path);
// Why this format cannot be written on this machine (MP4 and WebM need an ffmpeg program on the
// PATH), or nullopt when it can.
std::optional<std::string> why_unavailable(AnimationFormat format);

struct AnimationSettings {
    int width = 1280, height = 720;  // every frame's size
    double seconds_per_frame = 0.5;  // how long each frame is held
};

struct FinishedAnimation {
    std::vector<std::filesystem::path> files;  // one, or the PNG series' files in order
    std::uintmax_t bytes = 0;                  // their total size
    int frames = 0;
};

class AnimationWriter {
public:
    // Checks what can be checked before any frame: the format's availability, the settings
    // (sizes 1..16384, seconds_per_frame above 0 and at most 60), that the folder exists and a
    // file can be created in it (the temporary is created here). Nothing appears under the
    // final name before finish(). For a PNG series, `path` names the series: dir/out.png
    // becomes dir/out-0001.png, dir/out-0002.png, ...
    static std::variant<std::unique_ptr<AnimationWriter>, std::string> open(const std::filesystem::path& path,
                                                                             AnimationFormat format,
                                                                             const AnimationSettings& settings);
    // Without finish() (or after a finish() that failed): a cancel, every partial file removed.
    virtual ~AnimationWriter();
    AnimationWriter(const AnimationWriter&) = delete;
    AnimationWriter& operator=(const AnimationWriter&) = delete;

    // One frame: width × height × 3 bytes, RGB, rows top-down. Why it failed, or nullopt. A frame
    // of the wrong size is refused and the writer stays usable; a failure of the encoder or the
    // disk is final (every later call answers the same).
    virtual std::optional<std::string> add_frame(std::span<const unsigned char> rgb) = 0;
    // Encodes what remains and moves the result into place under the final name. Zero frames:
    // "no frames to export". On failure, the temporaries are removed at once.
    virtual std::variant<FinishedAnimation, std::string> finish() = 0;
    // The frames accepted so far.
    int frames_added() const { return m_frames_added; }

protected:
    AnimationWriter() = default;
    int m_frames_added = 0;  // counted by each format's add_frame
};

}  // namespace ts::exporting
