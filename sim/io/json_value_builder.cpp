#include "sim/io/json_value_builder.hpp"

#include <utility>

namespace gcsim {

nlohmann::json JsonValueBuilder::take() {
  nlohmann::json value = std::move(value_);
  value_ = nullptr;
  started_ = complete_ = false;
  return value;
}

// Puts a value where the events say: the whole value, the next element of
// the innermost array, or the member of the innermost object named by the
// last key. Only the innermost container grows, so the pointers to the open
// containers stay valid.
nlohmann::json& JsonValueBuilder::place(nlohmann::json value) {
  started_ = true;
  if (open_.empty()) {
    value_ = std::move(value);
    return value_;
  }
  nlohmann::json& parent = *open_.back();
  if (parent.is_array()) {
    parent.push_back(std::move(value));
    return parent.back();
  }
  nlohmann::json::object_t& members = parent.get_ref<nlohmann::json::object_t&>();
  // Keys mostly come in ascending order (nlohmann and gcsim write them so):
  // such a member goes at the end without a search.
  if (members.empty() || members.rbegin()->first < key_)
    return members.emplace_hint(members.end(), std::move(key_), std::move(value))->second;
  nlohmann::json& member = members[key_];
  member = std::move(value);
  return member;
}

void JsonValueBuilder::scalar(nlohmann::json value) {
  place(std::move(value));
  if (open_.empty()) complete_ = true;
}

void JsonValueBuilder::open(nlohmann::json container) { open_.push_back(&place(std::move(container))); }

void JsonValueBuilder::close() {
  open_.pop_back();
  if (open_.empty()) complete_ = true;
}

}  // namespace gcsim
