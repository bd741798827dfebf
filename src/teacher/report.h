// The closing summaries of `manaka teacher generate` and `convert`: as text
// for the command's stdout, and as one JSON object (the command's --json and
// the dict the Python functions return).
#pragma once

#include <string>

#include "teacher/convert.h"
#include "teacher/generate.h"

namespace manaka::teacher {

std::string format_summary(const ConvertSummary& s);
std::string format_summary(const GenerateSummary& s);

// One JSON object, keys in snake_case (documented in docs/teacher.md).
std::string summary_json(const ConvertSummary& s);
std::string summary_json(const GenerateSummary& s);

}  // namespace manaka::teacher
