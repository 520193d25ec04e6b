#include "latencytext.h"

namespace latprobe {

QString formatLatencyMs(int64_t us)
{
    if (us < 0)
        return QStringLiteral("–");
    const double ms = static_cast<double>(us) / 1000.0;
    return QStringLiteral("%1 ms").arg(ms, 0, 'f', ms < 10 ? 3 : ms < 100 ? 2 : 1);
}

} // namespace latprobe
