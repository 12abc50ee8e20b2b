// webp_writer.cxx — animated WebP through libwebp's WebPAnimEncoder (libwebpmux): lossless, so UI
// pictures come out exact and the same frames give the same bytes. Each frame is encoded as it
// comes (the encoder keeps only what it needs to compare the next frame with); finish() closes
// the animation, writes the temporary and renames it into place.
//
// The encoder compares each frame with the one before and stores only the rectangle that
// changed. A frame identical to the one before adds its time to that frame instead of becoming
// a frame of its own, so a decoder may count fewer frames than were added; the timing is kept.
#include <webp/encode.h>
#include <webp/mux.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <system_error>

#include "export/animation_writers.hpp"

namespace ts::exporting::detail {

namespace {

// WebP's limit on either side (WEBP_MAX_DIMENSION), one less than TileScope's own.
constexpr int kWebpLargestSide = WEBP_MAX_DIMENSION;

// Lossless effort: libwebp's lossless preset 1 (method 1, quality 20; for lossless, quality is
// effort, the pixels are exact at any setting). On the app's flat frames it writes files tens of
// times smaller than preset 0 and about as small as the slower presets (the timings and sizes:
// docs/notes/export.md).
constexpr int kWebpLosslessPreset = 1;

const char* anim_error_text(WebPAnimEncoder* encoder) {
    const char* why = encoder ? WebPAnimEncoderGetError(encoder) : nullptr;
    return why && *why ? why : "the WebP encoder failed";
}

class WebpWriter final : public AnimationWriter {
public:
    WebpWriter(Destination destination, std::filesystem::path temporary, AnimationSettings settings,
               WebPAnimEncoder* encoder, const WebPConfig& config)
        : m_destination(std::move(destination)), m_temporary(std::move(temporary)), m_settings(settings),
          m_encoder(encoder), m_config(config), m_frame_ms(frame_duration(settings, 1000, 1)) {}

    ~WebpWriter() override {
        WebPAnimEncoderDelete(m_encoder);
        if (!m_finished) remove_quietly(m_temporary);
    }

    std::optional<std::string> add_frame(std::span<const unsigned char> rgb) override {
        if (m_finished) return "the WebP " + m_destination.final_path.string() + " is already finished";
        if (m_failure) return m_failure;
        if (auto wrong = check_frame_size(rgb, m_settings, m_frames_added + 1)) return wrong;
        const long long timestamp = static_cast<long long>(m_frames_added) * m_frame_ms;
        if (timestamp + m_frame_ms > INT_MAX)
            return "the WebP " + m_destination.final_path.string() + " cannot be longer than " +
                   std::to_string(INT_MAX / 3600000) + " hours";

        WebPPicture picture;
        if (!WebPPictureInit(&picture)) return fail("the WebP library does not match its headers");
        picture.use_argb = 1;  // lossless works on ARGB
        picture.width = m_settings.width;
        picture.height = m_settings.height;
        if (!WebPPictureImportRGB(&picture, rgb.data(), m_settings.width * 3)) {
            WebPPictureFree(&picture);
            return fail("not enough memory for a frame");
        }
        const bool added = WebPAnimEncoderAdd(m_encoder, &picture, static_cast<int>(timestamp), &m_config) != 0;
        WebPPictureFree(&picture);
        if (!added) return fail(anim_error_text(m_encoder));
        ++m_frames_added;
        return std::nullopt;
    }

    std::variant<FinishedAnimation, std::string> finish() override {
        if (m_finished) return "the WebP " + m_destination.final_path.string() + " is already finished";
        if (m_failure) {
            m_finished = true;
            remove_quietly(m_temporary);
            return *m_failure;
        }
        m_finished = true;
        return finish_one_file(m_temporary, m_destination.final_path, m_frames_added,
                               [&] { return assemble_and_write(); });
    }

private:
    // Remembers why the encoder failed: every later call answers the same.
    std::optional<std::string> fail(const std::string& why) {
        m_failure = "cannot write the WebP " + m_destination.final_path.string() + ": " + why;
        return m_failure;
    }

    std::optional<std::string> assemble_and_write() {
        // A last call without a picture gives the last frame its duration.
        const int end = m_frames_added * m_frame_ms;
        if (!WebPAnimEncoderAdd(m_encoder, nullptr, end, nullptr))
            return "cannot write the WebP " + m_destination.final_path.string() + ": " + anim_error_text(m_encoder);
        WebPData assembled;
        WebPDataInit(&assembled);
        if (!WebPAnimEncoderAssemble(m_encoder, &assembled))
            return "cannot write the WebP " + m_destination.final_path.string() + ": " + anim_error_text(m_encoder);

        std::optional<std::string> failed;
        // "wb" on the existing temporary keeps the permissions create_empty_file gave it.
        std::FILE* file = std::fopen(m_temporary.c_str(), "wb");
        if (!file) {
            failed = cannot_write_in(m_destination.folder, errno);
        } else {
            const bool written = std::fwrite(assembled.bytes, 1, assembled.size, file) == assembled.size;
            const int write_errno = errno;
            const bool closed = std::fclose(file) == 0;
            if (!written || !closed)
                failed = "cannot write " + m_destination.final_path.string() + ": " +
                         std::error_code(written ? errno : write_errno, std::generic_category()).message();
        }
        WebPDataClear(&assembled);
        return failed;
    }

    Destination m_destination;
    std::filesystem::path m_temporary;
    AnimationSettings m_settings;
    WebPAnimEncoder* m_encoder;
    WebPConfig m_config;
    int m_frame_ms;
    std::optional<std::string> m_failure;
    bool m_finished = false;
};

}  // namespace

OpenedWriter open_webp_writer(const Destination& destination, const AnimationSettings& settings) {
    if (settings.width > kWebpLargestSide || settings.height > kWebpLargestSide)
        return "a WebP's frames can be at most " + std::to_string(kWebpLargestSide) + " pixels a side, not " +
               std::to_string(settings.width) + "×" + std::to_string(settings.height) +
               ": export a smaller size, or choose another format";

    WebPConfig config;
    if (!WebPConfigInit(&config)) return std::string("the WebP library does not match its headers");
    if (!WebPConfigLosslessPreset(&config, kWebpLosslessPreset))
        return std::string("the WebP library refuses its lossless settings");
    if (!WebPValidateConfig(&config)) return std::string("the WebP encoder refuses its settings");

    WebPAnimEncoderOptions options;
    if (!WebPAnimEncoderOptionsInit(&options)) return std::string("the WebP library does not match its headers");
    options.anim_params.loop_count = 0;  // forever
    options.allow_mixed = 0;             // every frame lossless

    std::filesystem::path temporary = temporary_beside(destination, "partial");
    if (auto failed = create_empty_file(temporary, destination.folder)) return *failed;
    WebPAnimEncoder* encoder = WebPAnimEncoderNew(settings.width, settings.height, &options);
    if (!encoder) {
        remove_quietly(temporary);
        return "cannot write the WebP " + destination.final_path.string() + ": not enough memory for the encoder";
    }
    return std::make_unique<WebpWriter>(destination, std::move(temporary), settings, encoder, config);
}

}  // namespace ts::exporting::detail
