#pragma once

#include "consumerconfig.h"

#include <QWidget>

#include <vector>

class QLabel;
class QPushButton;

namespace latprobe {

class CounterCard;
class LiveData;

// The numbers a tester watches: audio skips, dropped frames, GUI stalls,
// slow starts, wakeup p99 and max — each since the reset (large) and in
// the last 10 s (small) — and the Reset button that starts them over.
class CounterPanel : public QWidget
{
    Q_OBJECT
public:
    static constexpr size_t kCardsInOneRow = 6;

    CounterPanel(const std::vector<ConsumerConfig> &consumers, QWidget *parent = nullptr);

    void refresh(const LiveData &live);
    void setResetTime(const QString &since);
    CounterCard *card(const QString &key) const; // a consumer's name, "p99", "max"
    QPushButton *resetButton() const { return m_reset; }

signals:
    void resetRequested();

private:
    struct Entry
    {
        QString key;
        int consumer = -1;
        CounterCard *card = nullptr;
        double last = -1; // for "did it rise"
        bool cpu = false; // the CPU it got (gaming), not its misses
    };

    std::vector<Entry> m_entries;
    QLabel *m_since;
    QPushButton *m_reset;
    int m_refreshes = 0;
};

} // namespace latprobe
