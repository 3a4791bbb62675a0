#include "CJSONTape.h"

#include <new>
#include <string_view>
#include <vector>

#include <simdjson.h>

struct json_tape {
    simdjson::dom::parser parser;
    std::vector<json_tape_entry> entries;
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
bool append(std::vector<json_tape_entry> &entries, simdjson::dom::element element) {
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

}  // namespace

extern "C" json_tape *json_tape_parse(const uint8_t *bytes, size_t length, size_t max_depth) {
    if (bytes == nullptr || length == 0) return nullptr;
    json_tape *tape = new (std::nothrow) json_tape;
    if (tape == nullptr) return nullptr;
    try {
        simdjson::dom::element root;
        if (tape->parser.allocate(length, max_depth) != simdjson::SUCCESS
            || tape->parser.parse(bytes, length).get(root) != simdjson::SUCCESS) {
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
