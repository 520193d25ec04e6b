#pragma once

namespace latprobe {

// A share of one CPU, as a bucket of CPU seconds that fills with wall time
// (`share` a second, up to `capacityS`) and empties with what is spent:
// lp-explain reads the trace only while the bucket is not empty, so that
// over a run it takes `share` of a CPU and overshoots by at most one read.
// Its cost is per event read back, and under hackbench x4 back-to-back
// 10-s steps took 1.4 % of a CPU for their 16 explanations each.
class CpuBudget
{
public:
    CpuBudget(double share, double capacityS) : m_share(share), m_capacity(capacityS) {}

    // `nowS` on any clock that only goes forward; the bucket starts full.
    bool allows(double nowS)
    {
        if (m_lastS >= 0)
            m_left += m_share * (nowS - m_lastS);
        if (m_left > m_capacity)
            m_left = m_capacity;
        m_lastS = nowS;
        return m_left > 0;
    }
    void spend(double cpuS) { m_left -= cpuS; }

private:
    double m_share;
    double m_capacity;
    double m_left = m_capacity;
    double m_lastS = -1;
};

} // namespace latprobe
