#pragma once

#include "rawpage.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace latprobe {

// What a trace.dat holds besides the pages: how to read them. The texts are
// tracefs's own (events/header_page, events/<system>/<event>/format), read
// once when saving is asked for.
struct TraceDatFormats
{
    uint32_t pageSize = 0; // the ring buffer's (sub-)page: the pages' size
    int cpus = 0;          // the machine's, recorded or not
    std::string headerPage, headerEvent;
    std::vector<std::string> ftrace; // events/ftrace/*/format: print holds the markers
    std::vector<std::pair<std::string, std::vector<std::string>>> systems;
    std::string uname; // "Linux host 6.18.0 #1 SMP ... x86_64", shown by trace-cmd report
};

// trace-cmd's file, version 6, uncompressed (trace-cmd.dat.v6(5)), written
// here from its documented layout rather than through libtracecmd, whose
// writer Debian 12 ships only behind trace-cmd's private header
// (docs/DESIGN.md): the header, the formats, the pid-to-name table
// (`comms`), and each CPU's pages, in time order, page-aligned. Atomic: the
// file is written whole under a temporary name and renamed into `path`, or
// not at all; false with `error` one line when it could not be.
bool writeTraceDat(const std::string &path, const TraceDatFormats &formats,
                   const std::vector<RawPagePtr> &pages, const std::map<int, std::string> &comms,
                   std::string &error);

// The bytes writeTraceDat() would write (the tests read them back).
std::string traceDatBytes(const TraceDatFormats &formats, const std::vector<RawPagePtr> &pages,
                          const std::map<int, std::string> &comms);

} // namespace latprobe
