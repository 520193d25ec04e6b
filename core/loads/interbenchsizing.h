#pragma once

#include <cstdint>
#include <string>

namespace latprobe {

struct LoadSpec;

// The sizes interbench gives its loads, taken from this machine's memory
// and CPUs: what the words of the load parameters stand for
// (io_write:1:mb=interbench, memload:1:mb=interbench, burn:1:threads=nproc).

// The word a size parameter takes for interbench's size (mb=interbench).
inline constexpr const char *kInterbenchSize = "interbench";

struct MemInfo
{
    uint64_t totalKb = 0, availableKb = 0, swapTotalKb = 0, swapFreeKb = 0;
};

MemInfo readMemInfo(const std::string &path = "/proc/meminfo");

// interbench's Write and Read file: the size of RAM, so that the page cache
// cannot hold it, but at most 1,000,000 kB as interbench caps it. In MiB.
uint64_t interbenchFileMb(const MemInfo &mem);

// interbench's Memload: 110 % of RAM, within RAM + swap less a 64 MiB
// reserve, at most 2930 MiB as interbench caps it. In MiB; 0 without swap.
uint64_t interbenchMemloadMb(const MemInfo &mem);

// "" when memload's interbench size can run here, else why not and what to
// use instead: without swap, 110 % of RAM only wakes the OOM killer.
std::string interbenchMemloadRefusal(const MemInfo &mem);

// The words' values, for the kinds table.
double onlineCpusValue(const LoadSpec &);
double interbenchFileMbValue(const LoadSpec &);
double interbenchMemloadMbValue(const LoadSpec &);

} // namespace latprobe
