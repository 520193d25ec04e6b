#pragma once

// A variant from its command-line text ("off:autogroup=0"), for the tests:
// a text that does not parse is the test's own mistake, and stops it.

#include "variant.h"

#include <QString>
#include <QtGlobal>

#include <string>

namespace latprobe::test {

inline Variant variant(const QString &text)
{
    Variant v;
    std::string error;
    if (!parseVariant(text.toStdString(), v, error))
        qFatal("%s", error.c_str());
    return v;
}

} // namespace latprobe::test
