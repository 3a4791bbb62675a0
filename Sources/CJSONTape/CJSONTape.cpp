#include "CJSONTape.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string_view>
#include <vector>

#include <sys/mman.h>

#include <simdjson.h>

namespace {

/// The size of a transparent huge page on x86-64 and on arm64 with 4 KB pages.
constexpr size_t hugePageSize = 2 * 1024 * 1024;

/// The size of text from which a parse's buffers get huge pages: below it a buffer's last huge page would be
/// mostly empty, and zeroing 2 MB costs more than the 4 KB faults it saves.
constexpr size_t hugePageTextSize = 4 * 1024 * 1024;

/// Asks the kernel to back the whole 2 MB pages inside `[start, start + length)` with huge pages: a large document's
/// buffers are written once from start to end, and one fault per 2 MB instead of one per 4 KB halves the time the
/// parse spends in the kernel. Advice only: where the kernel does not follow it, nothing changes.
void adviseHugePages(void *start, size_t length) {
    if (start == nullptr) return;
    const uintptr_t begin = (reinterpret_cast<uintptr_t>(start) + hugePageSize - 1) & ~(hugePageSize - 1);
    const uintptr_t end = (reinterpret_cast<uintptr_t>(start) + length) & ~(hugePageSize - 1);
    if (end > begin) madvise(reinterpret_cast<void *>(begin), end - begin, MADV_HUGEPAGE);
}

/// The tape's allocator: `std::allocator`, with huge pages advised for the blocks of a text of 4 MB or more.
template <typename T> struct TapeAllocator {
    using value_type = T;
    TapeAllocator() = default;
    template <typename U> TapeAllocator(const TapeAllocator<U> &) noexcept {}
    T *allocate(size_t count) {
        T *block = std::allocator<T>().allocate(count);
        // The first reservation is 3 bytes for each byte of text (see json_tape_parse).
        if (count * sizeof(T) >= 3 * hugePageTextSize) adviseHugePages(block, count * sizeof(T));
        return block;
    }
    void deallocate(T *block, size_t count) noexcept { std::allocator<T>().deallocate(block, count); }
    template <typename U> bool operator==(const TapeAllocator<U> &) const noexcept { return true; }
};

using Entries = std::vector<json_tape_entry, TapeAllocator<json_tape_entry>>;

}  // namespace

struct json_tape {
    simdjson::dom::parser parser;
    Entries entries;
};

namespace {

bool isLowercaseIdentifier(std::string_view text) {
    for (char character : text) {
        if (!((character >= 'a' && character <= 'z') || (character >= '0' && character <= '9') || character == '_')) {
            return false;
        }
    }
    return true;
}

/// A container being copied: its entry, how many elements or members it has so far, and for an object whether
/// the next string is a key.
struct OpenContainer {
    size_t entry;
    size_t count;
    bool isObject;
    bool expectsKey;
};

/// Copies simdjson's tape of the document just parsed (see simdjson's doc/tape.md: 64-bit words, the type in the
/// top byte; a number's value in the next word; a string's offset in the string buffer, where its length comes
/// first; a container's start holding the index past its end) into `entries`, in one pass without recursion;
/// false when a size does not fit the tape's 32-bit fields.
bool copyTape(const simdjson::dom::document &document, Entries &entries) {
    const uint64_t *words = document.tape.get();
    const uint8_t *strings = document.string_buf.get();
    // The root word holds the index just past the closing root word.
    const size_t end = static_cast<size_t>(words[0] & simdjson::internal::JSON_VALUE_MASK) - 1;
    std::vector<OpenContainer> open;
    for (size_t index = 1; index < end;) {
        const uint64_t word = words[index];
        const uint64_t payload = word & simdjson::internal::JSON_VALUE_MASK;
        json_tape_entry entry{};
        bool completesValue = true;
        switch (static_cast<char>(word >> 56)) {
        case '{':
        case '[':
            open.push_back({entries.size(), 0, (word >> 56) == '{', true});
            entries.emplace_back();
            index += 1;
            continue;
        case '}':
        case ']': {
            const OpenContainer container = open.back();
            open.pop_back();
            if (container.count > UINT32_MAX || entries.size() > UINT32_MAX) return false;
            json_tape_entry &start = entries[container.entry];
            start.kind = container.isObject ? JSON_TAPE_OBJECT : JSON_TAPE_ARRAY;
            start.count = static_cast<uint32_t>(container.count);
            start.next = static_cast<uint32_t>(entries.size());
            index += 1;
            break;
        }
        case '"': {
            uint32_t length;
            std::memcpy(&length, strings + payload, sizeof(length));
            const char *text = reinterpret_cast<const char *>(strings + payload + sizeof(length));
            entry.kind = JSON_TAPE_STRING;
            entry.count = length;
            entry.payload.string = text;
            if (!open.empty() && open.back().isObject && open.back().expectsKey) {
                entry.lowercase_identifier = isLowercaseIdentifier(std::string_view(text, length));
                open.back().expectsKey = false;
                open.back().count++;
                completesValue = false;
            }
            index += 1;
            break;
        }
        case 'l':
            entry.kind = JSON_TAPE_INT64;
            entry.payload.uint64 = words[index + 1];
            index += 2;
            break;
        case 'u':
            entry.kind = JSON_TAPE_UINT64;
            entry.payload.uint64 = words[index + 1];
            index += 2;
            break;
        case 'd':
            entry.kind = JSON_TAPE_DOUBLE;
            entry.payload.uint64 = words[index + 1];
            index += 2;
            break;
        case 't':
            entry.kind = JSON_TAPE_TRUE;
            index += 1;
            break;
        case 'f':
            entry.kind = JSON_TAPE_FALSE;
            index += 1;
            break;
        case 'n':
            entry.kind = JSON_TAPE_NULL;
            index += 1;
            break;
        default:
            return false;
        }
        if (static_cast<char>(word >> 56) != '}' && static_cast<char>(word >> 56) != ']') {
            if (entries.size() >= UINT32_MAX) return false;
            entry.next = static_cast<uint32_t>(entries.size() + 1);
            entries.push_back(entry);
        }
        if (completesValue && !open.empty()) {
            if (open.back().isObject) {
                open.back().expectsKey = true;
            } else {
                open.back().count++;
            }
        }
    }
    return open.empty();
}

/// Whether the `SIMDJSON_PADDING` bytes after the text can be read: simdjson reads that far past its end. They can
/// when they are on the same page as the text's last byte (pages are 4 KB or larger), which is the case for most
/// texts; simdjson then parses the text where it is instead of copying it first.
bool hasReadablePadding(const uint8_t *bytes, size_t length) {
    const uintptr_t last = reinterpret_cast<uintptr_t>(bytes) + length - 1;
    return last / 4096 == (last + simdjson::SIMDJSON_PADDING) / 4096;
}

}  // namespace

extern "C" json_tape *json_tape_parse(const uint8_t *bytes, size_t length, size_t max_depth) {
    if (bytes == nullptr || length == 0) return nullptr;
    json_tape *tape = new (std::nothrow) json_tape;
    if (tape == nullptr) return nullptr;
    try {
        // The document is allocated here rather than by the parse (as large as it would make it), so that its
        // tape and strings, about 8 and 5/3 bytes for each byte of text (see document::allocate), get the advice.
        const size_t capacity = std::max(length, simdjson::dom::MINIMAL_DOCUMENT_CAPACITY);
        if (tape->parser.allocate(capacity, max_depth) != simdjson::SUCCESS
            || tape->parser.doc.allocate(capacity) != simdjson::SUCCESS) {
            delete tape;
            return nullptr;
        }
        if (length >= hugePageTextSize) {
            adviseHugePages(tape->parser.doc.tape.get(), (capacity + 3) * sizeof(uint64_t));
            adviseHugePages(tape->parser.doc.string_buf.get(), 5 * capacity / 3);
        }
        if (tape->parser.parse(bytes, length, !hasReadablePadding(bytes, length)).error() != simdjson::SUCCESS) {
            delete tape;
            return nullptr;
        }
        // Every value takes one entry and a member's key one more; eight bytes of text per entry is a close
        // first guess for ServiceNow's records, so the vector rarely grows.
        tape->entries.reserve(length / 8 + 1);
        if (!copyTape(tape->parser.doc, tape->entries)) {
            delete tape;
            return nullptr;
        }
    } catch (const std::bad_alloc &) {
        delete tape;
        return nullptr;
    }
    return tape;
}

extern "C" const json_tape_entry *json_tape_entries(const json_tape *tape) { return tape->entries.data(); }

extern "C" size_t json_tape_count(const json_tape *tape) { return tape->entries.size(); }

extern "C" void json_tape_free(json_tape *tape) { delete tape; }
