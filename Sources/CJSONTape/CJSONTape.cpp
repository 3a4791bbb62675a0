#include "CJSONTape.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
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

/// Frees a block of `malloc`.
struct Free {
    void operator()(void *block) const noexcept { std::free(block); }
};

}  // namespace

struct json_tape {
    simdjson::dom::parser parser;
    /// The entries, `count` of them, in a block made for as many as simdjson's tape has words (at least one word
    /// per value and per key).
    std::unique_ptr<json_tape_entry[], Free> entries;
    size_t count = 0;
};

namespace {

/// An open container while the tape is copied: its entry and the number of entries directly inside it so far.
struct OpenContainer {
    size_t entry;
    size_t children;
};

/// Writes the values of the document simdjson parsed into `entries`, read off its tape word by word (see
/// `simdjson::internal::tape_type`): one entry for each value and for each object key, a container's `next` and
/// `count` set when its closing word is read. Returns the number of entries; 0 when a size does not fit the
/// entries' 32-bit fields. `open` has room for the deepest nesting.
size_t copyTape(const simdjson::dom::document &document, json_tape_entry *entries, OpenContainer *open) {
    const uint64_t *tape = document.tape.get();
    const uint8_t *strings = document.string_buf.get();
    // The first word is the root's, whose payload is the index past the last word, the root's again.
    const size_t end = (tape[0] & simdjson::internal::JSON_VALUE_MASK) - 1;
    size_t count = 0;
    // The bottom one stands for the root, so that every value has a container to count it.
    size_t depth = 0;
    open[0] = {0, 0};
    for (size_t word = 1; word < end; word++) {
        const uint64_t value = tape[word];
        const uint64_t payload = value & simdjson::internal::JSON_VALUE_MASK;
        json_tape_entry entry{};
        switch (static_cast<char>(value >> 56)) {
        case '{':
        case '[':
            entry.kind = static_cast<char>(value >> 56) == '{' ? JSON_TAPE_OBJECT : JSON_TAPE_ARRAY;
            open[depth].children++;
            open[++depth] = {count, 0};
            entries[count++] = entry;
            continue;
        case '}':
        case ']': {
            const OpenContainer closed = open[depth--];
            json_tape_entry &container = entries[closed.entry];
            // An object's entries are its keys and their values.
            const size_t members = container.kind == JSON_TAPE_OBJECT ? closed.children / 2 : closed.children;
            if (members > UINT32_MAX || count > UINT32_MAX) return 0;
            container.count = static_cast<uint32_t>(members);
            container.next = static_cast<uint32_t>(count);
            continue;
        }
        case '"': {
            // A string is its length (32 bits) then its bytes and a NUL, in the document's string buffer.
            uint32_t length;
            std::memcpy(&length, strings + payload, sizeof(length));
            entry.kind = JSON_TAPE_STRING;
            entry.count = length;
            entry.payload.string = reinterpret_cast<const char *>(strings + payload + sizeof(length));
            break;
        }
        // A number's value is the word after its own.
        case 'l':
            entry.kind = JSON_TAPE_INT64;
            entry.payload.int64 = static_cast<int64_t>(tape[++word]);
            break;
        case 'u':
            entry.kind = JSON_TAPE_UINT64;
            entry.payload.uint64 = tape[++word];
            break;
        case 'd':
            entry.kind = JSON_TAPE_DOUBLE;
            std::memcpy(&entry.payload.real, &tape[++word], sizeof(double));
            break;
        case 't':
            entry.kind = JSON_TAPE_TRUE;
            break;
        case 'f':
            entry.kind = JSON_TAPE_FALSE;
            break;
        default:
            entry.kind = JSON_TAPE_NULL;
            break;
        }
        open[depth].children++;
        entry.next = static_cast<uint32_t>(count + 1);
        entries[count++] = entry;
    }
    return count <= UINT32_MAX ? count : 0;
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
        // At most one entry for each word of simdjson's tape (its first and last are the root's).
        const size_t words = tape->parser.doc.tape[0] & simdjson::internal::JSON_VALUE_MASK;
        tape->entries.reset(static_cast<json_tape_entry *>(std::malloc(words * sizeof(json_tape_entry))));
        std::vector<OpenContainer> open(max_depth + 2);
        if (tape->entries == nullptr) {
            delete tape;
            return nullptr;
        }
        if (length >= hugePageTextSize) adviseHugePages(tape->entries.get(), words * sizeof(json_tape_entry));
        tape->count = copyTape(tape->parser.doc, tape->entries.get(), open.data());
        if (tape->count == 0) {
            delete tape;
            return nullptr;
        }
    } catch (const std::bad_alloc &) {
        delete tape;
        return nullptr;
    }
    return tape;
}

extern "C" const json_tape_entry *json_tape_entries(const json_tape *tape) { return tape->entries.get(); }

extern "C" size_t json_tape_count(const json_tape *tape) { return tape->count; }

extern "C" void json_tape_free(json_tape *tape) { delete tape; }
