// gif_writer.cxx — GIF through giflib: one global palette for the whole animation, and each frame
// after the first written only as the rectangle that changed, so a UI animation where a few cells
// change from frame to frame stays small.
//
// A global palette needs every frame's colours before the first frame can be written, so the
// frames are kept until finish(). They are kept small: each pixel as its 15-bit colour bin (the
// palette is built from 5 bits a channel anyway, so nothing is lost), and each frame after the
// first only as the rectangle where its bins differ from the frame before.
//
// The palette: a histogram of every frame's pixels in 32768 bins (5 bits a channel), each bin
// with its count and the sum of the exact colours that fell in it; then median cut to at most
// 255 colours, always splitting the box whose longest side times its pixel count is largest, at
// the count-weighted median. A box's colour is the mean of the exact colours in it, so a flat
// colour that has a bin (and so a box) to itself comes out exact. The index after the colours is
// the transparent one, for the pixels a frame leaves as they were. Everything is integer
// arithmetic with fixed tie-breaks: the same frames give the same bytes.
#include <gif_lib.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "export/animation_writers.hpp"

namespace ts::exporting::detail {

namespace {

constexpr int kGifBinCount = 1 << 15;
constexpr int kGifMostColours = 255;  // the 256th index is the transparent one

inline std::uint16_t gif_bin_of(const unsigned char* rgb) {
    return static_cast<std::uint16_t>((rgb[0] >> 3) << 10 | (rgb[1] >> 3) << 5 | (rgb[2] >> 3));
}

inline int gif_bin_channel(int bin, int channel) { return (bin >> (10 - 5 * channel)) & 31; }

inline int gif_bin_at(int r, int g, int b) { return r << 10 | g << 5 | b; }

struct GifHistogram {
    std::vector<std::uint64_t> counts = std::vector<std::uint64_t>(kGifBinCount, 0);
    std::vector<std::array<std::uint64_t, 3>> sums = std::vector<std::array<std::uint64_t, 3>>(kGifBinCount);
};

// A box of bins, its bounds (5-bit coordinates, inclusive) shrunk to the bins that hold pixels.
struct GifBox {
    std::array<int, 3> low{}, high{};
    std::uint64_t count = 0;

    int longest_axis() const {
        int axis = 0;
        for (int c = 1; c < 3; ++c)
            if (high[c] - low[c] > high[axis] - low[axis]) axis = c;
        return axis;
    }
    std::uint64_t split_priority() const {
        const int axis = longest_axis();
        return static_cast<std::uint64_t>(high[axis] - low[axis]) * count;
    }
};

template <typename Visit>
void for_each_bin_in(const GifBox& box, Visit&& visit) {
    for (int r = box.low[0]; r <= box.high[0]; ++r)
        for (int g = box.low[1]; g <= box.high[1]; ++g)
            for (int b = box.low[2]; b <= box.high[2]; ++b) visit(gif_bin_at(r, g, b), std::array<int, 3>{r, g, b});
}

// Shrinks `box` to the bins in it that hold pixels and counts them. False when it holds none.
bool shrink_to_pixels(GifBox& box, const GifHistogram& histogram) {
    std::array<int, 3> low{31, 31, 31}, high{0, 0, 0};
    std::uint64_t count = 0;
    for_each_bin_in(box, [&](int bin, const std::array<int, 3>& at) {
        if (histogram.counts[bin] == 0) return;
        count += histogram.counts[bin];
        for (int c = 0; c < 3; ++c) {
            low[c] = std::min(low[c], at[c]);
            high[c] = std::max(high[c], at[c]);
        }
    });
    if (count == 0) return false;
    box.low = low;
    box.high = high;
    box.count = count;
    return true;
}

// Splits `box` across its longest side where half its pixels lie on either side.
std::array<GifBox, 2> split_at_median(const GifBox& box, const GifHistogram& histogram) {
    const int axis = box.longest_axis();
    std::array<std::uint64_t, 32> per_slice{};
    for_each_bin_in(box, [&](int bin, const std::array<int, 3>& at) { per_slice[at[axis]] += histogram.counts[bin]; });
    // The last slice where the lower part still holds less than half; both parts keep a slice
    // with pixels, since the box's bounds are shrunk to them.
    int cut = box.low[axis];
    std::uint64_t below = per_slice[cut];
    while (cut + 1 < box.high[axis] && 2 * below < box.count) below += per_slice[++cut];
    GifBox lower = box, upper = box;
    lower.high[axis] = cut;
    upper.low[axis] = cut + 1;
    shrink_to_pixels(lower, histogram);
    shrink_to_pixels(upper, histogram);
    return {lower, upper};
}

struct GifPalette {
    std::vector<GifColorType> colours;                   // at most 255
    std::vector<std::uint8_t> index_of_bin;              // kGifBinCount entries
    int transparent_index() const { return static_cast<int>(colours.size()); }
};

GifColorType mean_colour(const std::array<std::uint64_t, 3>& sums, std::uint64_t count) {
    auto channel = [&](int c) { return static_cast<GifByteType>((sums[c] + count / 2) / count); };
    return GifColorType{channel(0), channel(1), channel(2)};
}

GifPalette build_palette(const GifHistogram& histogram) {
    std::vector<GifBox> boxes;
    GifBox everything;
    everything.high = {31, 31, 31};
    if (shrink_to_pixels(everything, histogram)) boxes.push_back(everything);
    while (static_cast<int>(boxes.size()) < kGifMostColours) {
        // Ties go to the first box, so the order (and the bytes) never depend on anything else.
        std::size_t chosen = boxes.size();
        std::uint64_t best = 0;
        for (std::size_t i = 0; i < boxes.size(); ++i)
            if (boxes[i].split_priority() > best) {
                best = boxes[i].split_priority();
                chosen = i;
            }
        if (chosen == boxes.size()) break;  // every box is a single bin: no colour is merged
        const auto halves = split_at_median(boxes[chosen], histogram);
        boxes[chosen] = halves[0];
        boxes.push_back(halves[1]);
    }

    GifPalette palette;
    for (const GifBox& box : boxes) {
        std::array<std::uint64_t, 3> sums{};
        for_each_bin_in(box, [&](int bin, const std::array<int, 3>&) {
            for (int c = 0; c < 3; ++c) sums[c] += histogram.sums[bin][c];
        });
        palette.colours.push_back(mean_colour(sums, box.count));
    }
    // Each bin that holds pixels goes to the palette colour nearest its own mean colour (which is
    // at least as near as its box's colour). Bins without pixels are never looked up.
    palette.index_of_bin.assign(kGifBinCount, 0);
    for (int bin = 0; bin < kGifBinCount; ++bin) {
        if (histogram.counts[bin] == 0) continue;
        const GifColorType colour = mean_colour(histogram.sums[bin], histogram.counts[bin]);
        int nearest = 0;
        int nearest_distance = 1 << 30;
        for (int i = 0; i < static_cast<int>(palette.colours.size()); ++i) {
            const int dr = colour.Red - palette.colours[i].Red;
            const int dg = colour.Green - palette.colours[i].Green;
            const int db = colour.Blue - palette.colours[i].Blue;
            const int distance = dr * dr + dg * dg + db * db;
            if (distance < nearest_distance) {
                nearest_distance = distance;
                nearest = i;
            }
        }
        palette.index_of_bin[bin] = static_cast<std::uint8_t>(nearest);
    }
    return palette;
}

// A rectangle of a frame, in pixels; empty when width is 0.
struct GifRect {
    int left = 0, top = 0, width = 0, height = 0;
};

// Each frame as kept until finish(): its bins inside `rect`; outside it, the frame before's.
struct GifKeptFrame {
    GifRect rect;
    std::vector<std::uint16_t> bins;  // rect.width × rect.height, rows top-down
};

// The smallest rectangle inside `within` holding every pixel where `differs(x, y)`.
template <typename Differs>
GifRect changed_rect(const GifRect& within, Differs&& differs) {
    int left = within.left + within.width, right = within.left - 1;
    int top = within.top + within.height, bottom = within.top - 1;
    for (int y = within.top; y < within.top + within.height; ++y)
        for (int x = within.left; x < within.left + within.width; ++x)
            if (differs(x, y)) {
                left = std::min(left, x);
                right = std::max(right, x);
                top = std::min(top, y);
                bottom = std::max(bottom, y);
            }
    if (right < left) return {};
    return {left, top, right - left + 1, bottom - top + 1};
}

class GifWriter final : public AnimationWriter {
public:
    GifWriter(Destination destination, std::filesystem::path temporary, AnimationSettings settings)
        : m_destination(std::move(destination)), m_temporary(std::move(temporary)), m_settings(settings),
          m_previous_bins(static_cast<std::size_t>(settings.width) * settings.height) {}

    ~GifWriter() override {
        if (!m_finished) remove_quietly(m_temporary);
    }

    std::optional<std::string> add_frame(std::span<const unsigned char> rgb) override {
        if (m_finished) return "the GIF " + m_destination.final_path.string() + " is already finished";
        if (auto wrong = check_frame_size(rgb, m_settings, m_frames_added + 1)) return wrong;
        const int width = m_settings.width;
        const std::size_t pixels = m_previous_bins.size();
        std::vector<std::uint16_t> bins(pixels);
        for (std::size_t i = 0; i < pixels; ++i) {
            const unsigned char* pixel = rgb.data() + 3 * i;
            const std::uint16_t bin = gif_bin_of(pixel);
            bins[i] = bin;
            m_histogram.counts[bin] += 1;
            for (int c = 0; c < 3; ++c) m_histogram.sums[bin][c] += pixel[c];
        }
        GifKeptFrame kept;
        if (m_frames_added == 0) {
            kept.rect = {0, 0, width, m_settings.height};
        } else {
            kept.rect = changed_rect(GifRect{0, 0, width, m_settings.height}, [&](int x, int y) {
                const std::size_t i = static_cast<std::size_t>(y) * width + x;
                return bins[i] != m_previous_bins[i];
            });
        }
        kept.bins.reserve(static_cast<std::size_t>(kept.rect.width) * kept.rect.height);
        for (int y = kept.rect.top; y < kept.rect.top + kept.rect.height; ++y) {
            const auto row = bins.begin() + static_cast<std::ptrdiff_t>(y) * width;
            kept.bins.insert(kept.bins.end(), row + kept.rect.left, row + kept.rect.left + kept.rect.width);
        }
        m_kept.push_back(std::move(kept));
        m_previous_bins = std::move(bins);
        ++m_frames_added;
        return std::nullopt;
    }

    std::variant<FinishedAnimation, std::string> finish() override {
        if (m_finished) return "the GIF " + m_destination.final_path.string() + " is already finished";
        m_finished = true;
        return finish_one_file(m_temporary, m_destination.final_path, m_frames_added, [&] { return encode(); });
    }

private:
    std::string gif_failure(int error_code) const {
        const char* why = GifErrorString(error_code);
        return "cannot write the GIF " + m_destination.final_path.string() + ": " +
               (why ? why : "giflib error " + std::to_string(error_code));
    }

    // Writes every frame to the temporary. Why not, or nullopt.
    std::optional<std::string> encode() {
        const GifPalette palette = build_palette(m_histogram);
        const int transparent = palette.transparent_index();
        // The colour table's size is a power of two; the smallest that holds the transparent
        // index too keeps the LZW codes short.
        int table_size = 2;
        while (table_size < transparent + 1) table_size *= 2;
        std::vector<GifColorType> table(table_size, GifColorType{0, 0, 0});
        std::copy(palette.colours.begin(), palette.colours.end(), table.begin());
        ColorMapObject* colour_map = GifMakeMapObject(table_size, table.data());
        if (!colour_map) return gif_failure(E_GIF_ERR_NOT_ENOUGH_MEM);

        int error = 0;
        // giflib opens the existing temporary with O_TRUNC, so it keeps the permissions
        // create_empty_file gave it.
        GifFileType* gif = EGifOpenFileName(m_temporary.c_str(), false, &error);
        if (!gif) {
            GifFreeMapObject(colour_map);
            return gif_failure(error);
        }
        EGifSetGifVersion(gif, true);  // GIF89a: the extensions below need it
        const int width = m_settings.width, height = m_settings.height;
        bool ok = EGifPutScreenDesc(gif, width, height, 8, 0, colour_map) != GIF_ERROR;
        GifFreeMapObject(colour_map);  // giflib keeps a copy

        // Loop forever: the NETSCAPE2.0 application extension, sub-block 1, repeat count 0.
        if (ok) {
            static const GifByteType application[] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
            static const GifByteType repeat_forever[] = {1, 0, 0};
            ok = EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) != GIF_ERROR &&
                 EGifPutExtensionBlock(gif, sizeof application, application) != GIF_ERROR &&
                 EGifPutExtensionBlock(gif, sizeof repeat_forever, repeat_forever) != GIF_ERROR &&
                 EGifPutExtensionTrailer(gif) != GIF_ERROR;
        }

        const int delay_centiseconds = frame_duration(m_settings, 100, 2);  // browsers treat 0 and 1 as 10
        std::vector<std::uint16_t> bins(static_cast<std::size_t>(width) * height);
        std::vector<std::uint8_t> shown(bins.size());  // the palette indices on screen so far
        std::vector<std::uint8_t> fresh(bins.size());
        std::vector<GifPixelType> line(width);
        for (std::size_t f = 0; ok && f < m_kept.size(); ++f) {
            const GifKeptFrame& kept = m_kept[f];
            for (int y = 0; y < kept.rect.height; ++y)
                for (int x = 0; x < kept.rect.width; ++x) {
                    const std::size_t i = static_cast<std::size_t>(kept.rect.top + y) * width + kept.rect.left + x;
                    bins[i] = kept.bins[static_cast<std::size_t>(y) * kept.rect.width + x];
                    fresh[i] = palette.index_of_bin[bins[i]];
                }
            // What to draw: the whole first frame; after it, the pixels whose palette index
            // changed (two bins can share a colour, so this may be less than the kept rectangle).
            GifRect drawn;
            if (f == 0) {
                drawn = kept.rect;
            } else {
                drawn = changed_rect(kept.rect, [&](int x, int y) {
                    const std::size_t i = static_cast<std::size_t>(y) * width + x;
                    return fresh[i] != shown[i];
                });
            }
            GraphicsControlBlock control{};
            control.DisposalMode = DISPOSE_DO_NOT;  // later frames draw over this one
            control.UserInputFlag = false;
            control.DelayTime = delay_centiseconds;
            control.TransparentColor = f == 0 ? NO_TRANSPARENT_COLOR : transparent;
            GifByteType control_bytes[4];
            const size_t control_size = EGifGCBToExtension(&control, control_bytes);
            ok = EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, static_cast<int>(control_size), control_bytes) !=
                 GIF_ERROR;
            if (!ok) break;
            if (drawn.width == 0) {
                // Nothing changed: one transparent pixel keeps the frame, and so the timing.
                line[0] = static_cast<GifPixelType>(transparent);
                ok = EGifPutImageDesc(gif, 0, 0, 1, 1, false, nullptr) != GIF_ERROR &&
                     EGifPutLine(gif, line.data(), 1) != GIF_ERROR;
                continue;
            }
            ok = EGifPutImageDesc(gif, drawn.left, drawn.top, drawn.width, drawn.height, false, nullptr) != GIF_ERROR;
            for (int y = drawn.top; ok && y < drawn.top + drawn.height; ++y) {
                for (int x = 0; x < drawn.width; ++x) {
                    const std::size_t i = static_cast<std::size_t>(y) * width + drawn.left + x;
                    const bool same = f > 0 && fresh[i] == shown[i];
                    line[x] = static_cast<GifPixelType>(same ? transparent : fresh[i]);
                }
                ok = EGifPutLine(gif, line.data(), drawn.width) != GIF_ERROR;
            }
            for (int y = kept.rect.top; y < kept.rect.top + kept.rect.height; ++y) {
                const std::size_t row = static_cast<std::size_t>(y) * width + kept.rect.left;
                std::copy_n(fresh.begin() + row, kept.rect.width, shown.begin() + row);
            }
        }
        const int write_error = gif->Error;
        int close_error = 0;
        const bool closed = EGifCloseFile(gif, &close_error) != GIF_ERROR;
        if (!ok) return gif_failure(write_error ? write_error : E_GIF_ERR_WRITE_FAILED);
        if (!closed) return gif_failure(close_error);
        return std::nullopt;
    }

    Destination m_destination;
    std::filesystem::path m_temporary;
    AnimationSettings m_settings;
    GifHistogram m_histogram;
    std::vector<GifKeptFrame> m_kept;
    std::vector<std::uint16_t> m_previous_bins;  // the last frame added, whole
    bool m_finished = false;
};

}  // namespace

OpenedWriter open_gif_writer(const Destination& destination, const AnimationSettings& settings) {
    std::filesystem::path temporary = temporary_beside(destination, "partial");
    if (auto failed = create_empty_file(temporary, destination.folder)) return *failed;
    return std::make_unique<GifWriter>(destination, std::move(temporary), settings);
}

}  // namespace ts::exporting::detail
