#pragma once

#include "variant.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace latprobe {

// A variant in JSON, as a scenario file and a run file give it:
//
//   {"name": "tuned",
//    "settings": {"autogroup": 0, "slice_us": 300,
//                 "sysctl": {"vm.swappiness": 10},
//                 "cmd": ["cpupower", "frequency-set", "-g", "performance"],
//                 "undo": "cpupower frequency-set -g schedutil"}}
//
// "settings" may be absent or {} (the system as it is). A value is a
// string or a whole number; sysctl is an object of NAME: VALUE; scx, cmd
// and undo are a command line or an array of argv words, so that JSON has
// none of the text form's limits (commas, quotes). Filled into the same
// Variant as parseVariant and checked with checkVariant.

// False with `error` as the project's readers say it, "WHERE.FIELD: what"
// (`where` names the file and the path, "quick.json: variants[1]").
bool variantFromJson(const nlohmann::json &node, const std::string &where, Variant &variant,
                     std::string &error);
bool variantsFromJson(const nlohmann::json &array, const std::string &where,
                      std::vector<Variant> &variants, std::string &error);
nlohmann::json variantToJson(const Variant &variant);

} // namespace latprobe
