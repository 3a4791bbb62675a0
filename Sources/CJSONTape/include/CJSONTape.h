// A JSON document parsed by simdjson, flattened into a tape that Swift reads without calling back into C++.
//
// The tape lists the document's values depth first. A container's entry is followed by its contents: an array's
// elements, or an object's members as a key (a string entry) then its value. Every entry's `next` is the index
// just past the value and its contents, so a reader skips a value in one step.
#ifndef CJSONTAPE_H
#define CJSONTAPE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define JSON_TAPE_SWIFT_NAME(name) __attribute__((swift_name(#name)))

/// The kind of a tape entry.
typedef enum __attribute__((enum_extensibility(closed))) json_tape_kind : uint8_t {
    JSON_TAPE_NULL JSON_TAPE_SWIFT_NAME(null),
    JSON_TAPE_FALSE JSON_TAPE_SWIFT_NAME(false),
    JSON_TAPE_TRUE JSON_TAPE_SWIFT_NAME(true),
    /// A number written without fraction or exponent that fits in int64_t.
    JSON_TAPE_INT64 JSON_TAPE_SWIFT_NAME(int64),
    /// A number written without fraction or exponent, above INT64_MAX, that fits in uint64_t.
    JSON_TAPE_UINT64 JSON_TAPE_SWIFT_NAME(uint64),
    /// Any other number.
    JSON_TAPE_DOUBLE JSON_TAPE_SWIFT_NAME(double),
    /// A string, whose bytes the entry's payload points to.
    JSON_TAPE_STRING JSON_TAPE_SWIFT_NAME(string),
    /// An array, followed on the tape by its elements.
    JSON_TAPE_ARRAY JSON_TAPE_SWIFT_NAME(array),
    /// An object, followed on the tape by its members: each a key (a string) then its value.
    JSON_TAPE_OBJECT JSON_TAPE_SWIFT_NAME(object),
} json_tape_kind;

/// One value of the document.
typedef struct json_tape_entry {
    json_tape_kind kind;
    /// A string's length in bytes, an array's number of elements or an object's number of members.
    uint32_t count;
    /// The index of the entry after this value and its contents.
    uint32_t next;
    union {
        int64_t int64;
        uint64_t uint64;
        double real;
        /// A string's UTF-8 bytes, unescaped and validated, followed by a NUL.
        const char *string;
    } payload;
} json_tape_entry;

// Swift reads entries as its own `TapeEntry` (Sources/JSONTape/TapeEntry.swift), which has this layout.
_Static_assert(sizeof(json_tape_kind) == 1, "json_tape_kind is one byte");
_Static_assert(offsetof(json_tape_entry, count) == 4, "TapeEntry.count");
_Static_assert(offsetof(json_tape_entry, next) == 8, "TapeEntry.next");
_Static_assert(offsetof(json_tape_entry, payload) == 16, "TapeEntry.payload");
_Static_assert(sizeof(json_tape_entry) == 24, "TapeEntry's size");

/// A parsed document; its strings live as long as it does.
typedef struct json_tape json_tape;

/// Parses `length` bytes of JSON. Returns NULL when the text is not valid JSON (or not UTF-8), nests deeper than
/// `max_depth`, holds a number out of range, or memory runs out.
json_tape *json_tape_parse(const uint8_t *bytes, size_t length, size_t max_depth);

/// The entries of a document: the root value first.
const json_tape_entry *json_tape_entries(const json_tape *tape);

/// The number of entries.
size_t json_tape_count(const json_tape *tape);

/// Frees a document and its strings.
void json_tape_free(json_tape *tape);

#ifdef __cplusplus
}
#endif

#endif
