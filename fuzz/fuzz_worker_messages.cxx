// What comes back from the GPU worker process over its pipe: frames and the JSON in them.
// A worker that writes anything at all makes the supervisor stop it, never crash; that includes
// its handshake (a "hello" of any protocol and version, judged by wire::incompatibility).
#include <cstdint>
#include <string>

#include "gpu/wire.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    ts::gpu::wire::FrameReader reader;
    reader.feed(reinterpret_cast<const char*>(data), size);
    for (int i = 0; i < 64; ++i) {
        auto frame = reader.next();
        const auto* payload = std::get_if<std::optional<std::string>>(&frame);
        if (!payload || !*payload) break;
        auto message = ts::gpu::wire::decode_message(**payload);
        if (auto* decoded = std::get_if<ts::gpu::wire::Message>(&message)) {
            if (decoded->hello) [[maybe_unused]] auto why = ts::gpu::wire::incompatibility(*decoded->hello, "gpu1");
            [[maybe_unused]] auto again = ts::gpu::wire::encode_message(*decoded);
        }
    }
    [[maybe_unused]] auto whole = ts::gpu::wire::decode_message(std::string(reinterpret_cast<const char*>(data), size));
    return 0;
}
