// animation_writers.hpp — private to app/export: what the formats' writers share (temporary
// names beside the destination, moving a finished file into place, the messages for both), and
// the function that opens each format's writer. One format per file: gif_writer.cxx,
// webp_writer.cxx, png_series_writer.cxx, ffmpeg_writer.cxx (MP4 and WebM).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <variant>

#include "export/animation_file.hpp"

namespace ts::exporting::detail {

using OpenedWriter = std::variant<std::unique_ptr<AnimationWriter>, std::string>;

// Where a writer puts its result. AnimationWriter::open has checked the settings and that the
// path names a file; the writer itself checks the folder by creating its temporary there.
struct Destination {
    std::filesystem::path final_path;  // as the caller gave it
    std::filesystem::path folder;      // its parent; "." for a bare file name
};
Destination destination_of(const std::filesystem::path& final_path);

// The folder as a message names it: absolute, so "cannot write in ." never happens.
std::string folder_for_messages(const std::filesystem::path& folder);
// "cannot write in /x/y: No such file or directory".
std::string cannot_write_in(const std::filesystem::path& folder, const std::error_code& error);
std::string cannot_write_in(const std::filesystem::path& folder, int errno_value);

// A hidden name in the destination's folder, unique to this process and call:
// ".out.gif.partial-<pid>-<n>" (role "partial"), ".out.mp4.log-<pid>-<n>" (role "log").
std::filesystem::path temporary_beside(const Destination& destination, std::string_view role);
// Creates `temporary` empty (it must not exist yet), with the permissions a new file gets
// (0666 less the umask; the final file keeps them through the rename). Why not, or nullopt.
std::optional<std::string> create_empty_file(const std::filesystem::path& temporary,
                                             const std::filesystem::path& folder);
// Renames `temporary` to `final_path` (one folder, so a reader sees the old file or the whole
// new one). On failure `temporary` is removed and the message says why.
std::optional<std::string> move_into_place(const std::filesystem::path& temporary,
                                           const std::filesystem::path& final_path);
// Removes a file or a folder with what it holds, ignoring any failure (a cancel has no one to
// tell).
void remove_quietly(const std::filesystem::path& path);
// The file's size, or 0 when it cannot be read.
std::uintmax_t size_of(const std::filesystem::path& file);

// The end of a one-file writer's finish(): none with zero frames, else `encode` (which writes the
// temporary; why not, or nullopt), then the temporary moved into place. The temporary is removed
// on any failure.
std::variant<FinishedAnimation, std::string> finish_one_file(const std::filesystem::path& temporary,
                                                             const std::filesystem::path& final_path, int frames,
                                                             const std::function<std::optional<std::string>()>& encode);

// Why `rgb` is not one frame of `settings`' size, or nullopt. `frame_number` counts from 1.
std::optional<std::string> check_frame_size(std::span<const unsigned char> rgb, const AnimationSettings& settings,
                                            int frame_number);
// How long each frame is held, in the units a format counts in, rounded and at least `minimum`.
int frame_duration(const AnimationSettings& settings, int units_per_second, int minimum);

// Each format's writer. `settings` are checked; the writer creates its temporaries.
OpenedWriter open_gif_writer(const Destination& destination, const AnimationSettings& settings);
OpenedWriter open_webp_writer(const Destination& destination, const AnimationSettings& settings);
OpenedWriter open_png_series_writer(const Destination& destination, const AnimationSettings& settings);
OpenedWriter open_ffmpeg_writer(const Destination& destination, AnimationFormat format,
                                const AnimationSettings& settings);

}  // namespace ts::exporting::detail
