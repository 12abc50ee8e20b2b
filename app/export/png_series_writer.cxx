// png_series_writer.cxx — a numbered series of PNG files through stb_image_write: dir/out.png
// becomes dir/out-0001.png, dir/out-0002.png, ... Each frame is written as it comes into a hidden
// folder beside them (.out.png.partial-<pid>-<n>); finish() moves the files into place and
// removes the folder, so a half-written series never shows under the final names.
#include <algorithm>
#include <cerrno>
#include <system_error>
#include <vector>

// Debian's libstb.so already contains stb_image_write's implementation (tilescope::stb links
// it), so this file only includes the declarations.
#include <stb_image_write.h>

#include "export/animation_writers.hpp"

namespace ts::exporting::detail {

namespace {

constexpr int kSeriesLeastDigits = 4;

// "out-0007.png": the frame's number with at least `digits` digits.
std::string series_file_name(const std::string& stem, const std::string& extension, int number, int digits) {
    std::string counted = std::to_string(number);
    if (static_cast<int>(counted.size()) < digits) counted.insert(0, digits - counted.size(), '0');
    return stem + "-" + counted + extension;
}

class PngSeriesWriter final : public AnimationWriter {
public:
    PngSeriesWriter(Destination destination, std::filesystem::path partial_folder, AnimationSettings settings)
        : m_destination(std::move(destination)), m_partial_folder(std::move(partial_folder)), m_settings(settings) {
        // "out.png" names the series "out"; any other name (the caller chose PNG for "out.frames")
        // is kept whole, and each file still ends in .png.
        const std::filesystem::path name = m_destination.final_path.filename();
        const std::string extension = name.extension().string();
        if (extension.size() == 4 && (extension[1] | 0x20) == 'p' && (extension[2] | 0x20) == 'n' &&
            (extension[3] | 0x20) == 'g') {
            m_stem = name.stem().string();
            m_extension = extension;
        } else {
            m_stem = name.string();
            m_extension = ".png";
        }
    }

    ~PngSeriesWriter() override {
        if (!m_finished) remove_quietly(m_partial_folder);
    }

    std::optional<std::string> add_frame(std::span<const unsigned char> rgb) override {
        if (m_finished) return "the PNG series " + m_destination.final_path.string() + " is already finished";
        if (m_failure) return m_failure;
        if (auto wrong = check_frame_size(rgb, m_settings, m_frames_added + 1)) return wrong;
        const int number = m_frames_added + 1;
        const std::filesystem::path file =
            m_partial_folder / series_file_name(m_stem, m_extension, number, kSeriesLeastDigits);
        errno = 0;
        if (!stbi_write_png(file.c_str(), m_settings.width, m_settings.height, 3, rgb.data(), m_settings.width * 3)) {
            // stb says only that it failed; fopen or fwrite left the reason in errno, if any.
            const int why = errno;
            m_failure = "cannot write frame " + std::to_string(number) + " of the PNG series in " +
                        folder_for_messages(m_destination.folder) +
                        (why ? ": " + std::error_code(why, std::generic_category()).message()
                             : ": not enough memory or disk space");
            remove_quietly(m_partial_folder);
            return m_failure;
        }
        ++m_frames_added;
        return std::nullopt;
    }

    std::variant<FinishedAnimation, std::string> finish() override {
        if (m_finished) return "the PNG series " + m_destination.final_path.string() + " is already finished";
        m_finished = true;
        if (m_failure) {
            remove_quietly(m_partial_folder);
            return *m_failure;
        }
        if (m_frames_added == 0) {
            remove_quietly(m_partial_folder);
            return std::string("no frames to export");
        }
        // Four digits, more when the series is longer, so that the names sort in order.
        const int digits = std::max<int>(kSeriesLeastDigits, static_cast<int>(std::to_string(m_frames_added).size()));
        FinishedAnimation finished;
        finished.frames = m_frames_added;
        for (int number = 1; number <= m_frames_added; ++number) {
            const std::filesystem::path written =
                m_partial_folder / series_file_name(m_stem, m_extension, number, kSeriesLeastDigits);
            const std::filesystem::path placed =
                m_destination.folder / series_file_name(m_stem, m_extension, number, digits);
            if (auto failed = move_into_place(written, placed)) {
                // Half a series is worse than none: take back the files already moved.
                for (const auto& file : finished.files) remove_quietly(file);
                remove_quietly(m_partial_folder);
                return *failed;
            }
            // Keep the caller's spelling of the folder ("out.png" gives "out-0001.png").
            const std::filesystem::path reported =
                m_destination.final_path.has_parent_path() ? placed : placed.filename();
            finished.files.push_back(reported);
            finished.bytes += size_of(placed);
        }
        remove_quietly(m_partial_folder);
        return finished;
    }

private:
    Destination m_destination;
    std::filesystem::path m_partial_folder;
    AnimationSettings m_settings;
    std::string m_stem, m_extension;
    std::optional<std::string> m_failure;
    bool m_finished = false;
};

}  // namespace

OpenedWriter open_png_series_writer(const Destination& destination, const AnimationSettings& settings) {
    std::filesystem::path partial_folder = temporary_beside(destination, "partial");
    std::error_code error;
    if (!std::filesystem::create_directory(partial_folder, error) || error) {
        if (!error) error = std::make_error_code(std::errc::file_exists);
        return cannot_write_in(destination.folder, error);
    }
    return std::make_unique<PngSeriesWriter>(destination, std::move(partial_folder), settings);
}

}  // namespace ts::exporting::detail
