// A struct's fields, declared once beside it: `static auto fields()` returns a tuple of
// field("name", &T::member), or field("name", getter) for a figure derived from the
// others. The Python module turns any such struct into a dict from it
// (bindings/bindings.h: to_python), so that what a result holds is named in one place.
#pragma once

#include <concepts>
#include <functional>
#include <string_view>
#include <tuple>

namespace knightgym {

template <class Get>
struct Field {
  std::string_view name;
  Get get;  // a pointer to a member, or a callable on the struct
};

template <class Get>
constexpr Field<Get> field(std::string_view name, Get get) {
  return {name, get};
}

template <class T>
concept HasFields = requires {
  T::fields();
};

// Calls f(name, value) for each field of `value`, in order.
template <HasFields T, class F>
void for_each_field(const T& value, F&& f) {
  std::apply([&](const auto&... fields) { (f(fields.name, std::invoke(fields.get, value)), ...); },
             T::fields());
}

}  // namespace knightgym
