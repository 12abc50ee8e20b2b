// wire.hpp — what the window's GPU worker process and its supervisor say to each other over
// a pipe: framed messages, each a 4-byte little-endian length and that many bytes of JSON.
//
//   worker → supervisor   {"type":"hello","hello":{...}}  first, unasked: the handshake (Hello)
//   supervisor → worker   {"type":"probe"}            {"type":"run","request":{...},"deadline_s":40}
//   worker → supervisor   {"type":"device",...}       {"type":"alive"} (heartbeat, while running)
//                         {"type":"waiting","ahead":2} (queued behind others' requests for the GPU)
//                         {"type":"turn"}             (the request has the GPU: its deadline starts)
//                         {"type":"result","result":{...},"context_lost":false}
//
// Every RunRequest and RunResult field travels, the recorded trace included, so the views
// cannot tell a result from the worker from one computed in their own process.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "runner.hpp"

namespace ts::gpu::wire {

// The messages' version: both sides must speak the same one. 1 had no handshake.
inline constexpr int kProtocolVersion = 2;
// This build's version ("0.1.0"), as the handshake gives it.
const char* tilescope_version();

// The worker's first message: who it is and what GPU it has.
struct Hello {
    int protocol = 0;
    std::string tilescope_version{};
    DeviceInfo device{};  // its probe: GPU, driver and CUDA, with `host` and `gpu_lock` set
};
// Why this build cannot talk to the worker that said `hello`, in one sentence that names both
// versions and what to install where; nullopt when they match. `where`: "gpu1", "this machine".
std::optional<std::string> incompatibility(const Hello& hello, const std::string& where);

// The largest frame either side accepts: a trace of 4 M loads is about 100 MB of JSON.
inline constexpr std::uint32_t kMaxFrameBytes = 512u << 20;

std::string encode_request(const RunRequest& request);
std::string encode_result(const RunResult& result);
std::string encode_device(const DeviceInfo& device);

// A message as read back; `type` says which of the others is set.
struct Message {
    std::string type;  // "hello", "probe", "run", "device", "alive", "waiting", "turn", "result"
    std::optional<Hello> hello{};
    std::optional<RunRequest> request{};
    double deadline_s = 0.0;  // with "run": the worker stops itself when the request runs longer (0: never)
    int ahead = 0;            // with "waiting": requests ahead in the GPU's queue
    std::optional<RunResult> result{};
    std::optional<DeviceInfo> device{};
    bool context_lost = false;  // with "result": the worker's CUDA context is gone; it exits
};
std::string encode_message(const Message& message);
// The message in `text`, or why it is not one.
std::variant<Message, std::string> decode_message(std::string_view text);

// A frame whose length has its top bit set holds its payload compressed (zlib), after the 4-byte
// little-endian length of the payload itself: the worker sends a large result so (a recorded
// trace: tens of MB of JSON that compress about tenfold), which matters over a server's link.
inline constexpr std::uint32_t kCompressedFrameBit = 1u << 31;
inline constexpr std::size_t kCompressAboveBytes = 64 << 10;

// Whole frames on file descriptors. write_frame: false when the pipe is closed; compressed when
// asked and the payload is over kCompressAboveBytes. read_frame: the payload (decompressed); an
// empty optional at end of file; an error string for a frame that is not one.
bool write_frame(int fd, std::string_view payload, bool compress_large = false);
// The frame's bytes, header included, as write_frame writes them.
std::string frame_bytes(std::string_view payload, bool compress_large = false);
std::variant<std::optional<std::string>, std::string> read_frame(int fd);

// Frames out of bytes as they arrive, for a reader that must never block on a half frame.
class FrameReader {
public:
    void feed(const char* data, std::size_t size) { m_buffer.append(data, size); }
    // The next whole frame; an empty optional while it is still incomplete; an error string
    // for bytes that cannot be a frame.
    std::variant<std::optional<std::string>, std::string> next();
    bool empty() const { return m_buffer.empty(); }

private:
    std::string m_buffer;
};

}  // namespace ts::gpu::wire
