#include "CJSONTape.h"

#include <algorithm>
#include <cstdlib>
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

/// Appends `element` and its contents; false when a size does not fit the tape's 32-bit fields.
bool append(Entries &entries, simdjson::dom::element element) {
    using simdjson::dom::element_type;
    const size_t index = entries.size();
    entries.emplace_back();
    json_tape_entry entry{};
    size_t count = 0;
    switch (element.type()) {
    case element_type::ARRAY:
        entry.kind = JSON_TAPE_ARRAY;
        for (simdjson::dom::element child : simdjson::dom::array(element)) {
            if (!append(entries, child)) return false;
            count++;
        }
        break;
    case element_type::OBJECT:
        entry.kind = JSON_TAPE_OBJECT;
        for (simdjson::dom::key_value_pair member : simdjson::dom::object(element)) {
            json_tape_entry key{};
            key.kind = JSON_TAPE_STRING;
            key.lowercase_identifier = isLowercaseIdentifier(member.key);
            if (member.key.size() > UINT32_MAX) return false;
            key.count = static_cast<uint32_t>(member.key.size());
            key.next = static_cast<uint32_t>(entries.size() + 1);
            key.payload.string = member.key.data();
            entries.push_back(key);
            if (!append(entries, member.value)) return false;
            count++;
        }
        break;
    case element_type::STRING: {
        std::string_view string = element.get_string().value_unsafe();
        entry.kind = JSON_TAPE_STRING;
        count = string.size();
        entry.payload.string = string.data();
        break;
    }
    case element_type::INT64:
        entry.kind = JSON_TAPE_INT64;
        entry.payload.int64 = element.get_int64().value_unsafe();
        break;
    case element_type::UINT64:
        entry.kind = JSON_TAPE_UINT64;
        entry.payload.uint64 = element.get_uint64().value_unsafe();
        break;
    case element_type::DOUBLE:
        entry.kind = JSON_TAPE_DOUBLE;
        entry.payload.real = element.get_double().value_unsafe();
        break;
    case element_type::BOOL:
        entry.kind = element.get_bool().value_unsafe() ? JSON_TAPE_TRUE : JSON_TAPE_FALSE;
        break;
    case element_type::NULL_VALUE:
        entry.kind = JSON_TAPE_NULL;
        break;
    }
    if (count > UINT32_MAX || entries.size() > UINT32_MAX) return false;
    entry.count = static_cast<uint32_t>(count);
    entry.next = static_cast<uint32_t>(entries.size());
    entries[index] = entry;
    return true;
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
        simdjson::dom::element root;
        if (tape->parser.allocate(capacity, max_depth) != simdjson::SUCCESS
            || tape->parser.doc.allocate(capacity) != simdjson::SUCCESS) {
            delete tape;
            return nullptr;
        }
        if (length >= hugePageTextSize) {
            adviseHugePages(tape->parser.doc.tape.get(), (capacity + 3) * sizeof(uint64_t));
            adviseHugePages(tape->parser.doc.string_buf.get(), 5 * capacity / 3);
        }
        if (tape->parser.parse(bytes, length, !hasReadablePadding(bytes, length)).get(root) != simdjson::SUCCESS) {
            delete tape;
            return nullptr;
        }
        // Every value takes one entry and a member's key one more; eight bytes of text per entry is a close
        // first guess for ServiceNow's records, so the vector rarely grows.
        tape->entries.reserve(length / 8 + 1);
        if (!append(tape->entries, root)) {
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
