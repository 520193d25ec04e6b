#pragma once

// A load spec from the text a test writes: a test's spec is right, or the
// test is (it stops with the parser's message).

#include "loadspec.h"

#include <QtGlobal>

#include <string>

inline latprobe::LoadSpec spec(const std::string &text)
{
    latprobe::LoadSpec s;
    std::string error;
    if (!latprobe::parseLoadSpec(text, s, error))
        qFatal("bad spec %s: %s", text.c_str(), error.c_str());
    return s;
}
