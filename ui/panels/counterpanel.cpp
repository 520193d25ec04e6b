#include "counterpanel.h"
#include "latencytext.h"

#include "consumerstyle.h"
#include "consumertable.h"
#include "countercard.h"
#include "livedata.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace latprobe {

namespace {

QString missToolTip(const ConsumerConfig &c)
{
    return QString::fromStdString(describeConsumer(c)) +
           QObject::tr("\n\nLarge: since the last reset. Small: in the last 10 seconds.");
}

} // namespace

CounterPanel::CounterPanel(const std::vector<ConsumerConfig> &consumers, QWidget *parent)
    : QWidget(parent), m_since(new QLabel(this)), m_reset(new QPushButton(tr("&Reset"), this))
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(8);
    std::vector<CounterCard *> cards;
    auto find = [&](ConsumerRole role) {
        for (size_t i = 0; i < consumers.size(); ++i)
            if (consumers[i].role == role)
                return static_cast<int>(i);
        return -1;
    };
    // A card per consumer with a deadline, or with only a CPU target
    // (gaming: the CPU it got), in the table's order.
    size_t count = 0;
    const ConsumerTraits *table = consumerTable(count);
    for (size_t t = 0; t < count; ++t) {
        const int i = find(table[t].role);
        const bool cpu = i >= 0 && consumers[i].kind == ConsumerKind::Continuous;
        if (i < 0 || (!consumers[i].hasDeadline() && !cpu))
            continue;
        const std::string name(table[t].name);
        auto *card = new CounterCard(QString::fromStdString(missTitle(name)),
                                     missToolTip(consumers[i]), this);
        card->setConsumer(name);
        cards.push_back(card);
        m_entries.push_back({QString::fromStdString(name), i, card, -1, cpu});
    }
    const int wakeup = find(ConsumerRole::Wakeup);
    if (wakeup >= 0) {
        const QString interval =
            QString::number(static_cast<double>(consumers[wakeup].periodNs) / 1e6, 'g', 3);
        const QString tail = tr("\n\nLarge: since the last reset. Small: in the last 10 seconds.");
        auto *p99 = new CounterCard(
            tr("Wakeup p99"),
            tr("99 % of the wakeups of a thread sleeping %1 ms at a time (cyclictest's method, "
               "SCHED_OTHER) came at most this late. The number latency testers compare.")
                    .arg(interval) +
                tail,
            this);
        auto *max = new CounterCard(
            tr("Wakeup max"),
            tr("The latest of those wakeups. On a virtual machine the maximum is often the "
               "host's hiccup rather than the scheduler's: read it with p99.") +
                tail,
            this);
        p99->setConsumer(consumers[wakeup].name);
        max->setConsumer(consumers[wakeup].name);
        cards.push_back(p99);
        cards.push_back(max);
        m_entries.push_back({QStringLiteral("p99"), wakeup, p99});
        m_entries.push_back({QStringLiteral("max"), wakeup, max});
    }

    // More cards than fit in a row at the window's smallest width (1024 px:
    // six of 120 px and the Reset column) go in two rows, half in each.
    auto *grid = new QGridLayout;
    grid->setSpacing(8);
    const int columns = cards.size() > kCardsInOneRow ? (static_cast<int>(cards.size()) + 1) / 2
                                                      : static_cast<int>(cards.size());
    for (size_t k = 0; k < cards.size(); ++k)
        grid->addWidget(cards[k], static_cast<int>(k) / columns, static_cast<int>(k) % columns);
    layout->addLayout(grid, 1);

    auto *side = new QVBoxLayout;
    side->setSpacing(4);
    side->addStretch();
    m_since->setToolTip(tr("Counters count from this moment. Reset starts a new phase in the "
                           "run; earlier phases stay in the report."));
    side->addWidget(m_since);
    m_reset->setToolTip(tr("Start counting from zero: begins a new phase of the run (Ctrl+R)"));
    side->addWidget(m_reset);
    side->addStretch();
    layout->addLayout(side);
    connect(m_reset, &QPushButton::clicked, this, &CounterPanel::resetRequested);
}

void CounterPanel::setResetTime(const QString &since)
{
    m_since->setText(tr("since %1").arg(since));
    for (Entry &e : m_entries)
        e.last = -1;
    m_refreshes = 0;
}

CounterCard *CounterPanel::card(const QString &key) const
{
    for (const Entry &e : m_entries)
        if (e.key == key)
            return e.card;
    return nullptr;
}

void CounterPanel::refresh(const LiveData &live)
{
    ++m_refreshes;
    for (Entry &e : m_entries) {
        const size_t c = static_cast<size_t>(e.consumer);
        double value = 0;
        bool rose = false;
        if (e.key == QLatin1String("p99") || e.key == QLatin1String("max")) {
            const bool p99 = e.key == QLatin1String("p99");
            const int64_t since = p99 ? live.p99SinceResetUs() : live.maxSinceResetUs(c);
            const int64_t window = p99 ? live.p99LastWindowUs() : live.maxLastWindowUs(c);
            e.card->setValues(formatLatencyMs(since),
                              tr("last 10 s: %1").arg(formatLatencyMs(window)));
            value = static_cast<double>(since);
            // The first seconds after a reset always raise the maximum; only
            // a jump later on is news. p99 wanders: a 10 % rise is.
            rose = m_refreshes > 12 && e.last >= 0 && value > e.last * (p99 ? 1.1 : 1.0);
        } else if (e.cpu) {
            // Phase statistics come at 1 Hz; the slowest burn of the last
            // 10 s says what the share hides.
            const double since = live.cpuSinceResetPct(c);
            const int64_t late = live.maxLastWindowUs(c);
            e.card->setValues(since < 0 ? QStringLiteral("–")
                                        : QStringLiteral("%1 %").arg(since, 0, 'f', 1),
                              tr("last 10 s: late %1").arg(formatLatencyMs(late)));
            value = since;
            // A share that falls is the news: a point less.
            rose = m_refreshes > 12 && e.last >= 0 && since >= 0 && since < e.last - 1.0;
        } else {
            const uint64_t since = live.missesSinceReset(c);
            e.card->setValues(QString::number(since),
                              tr("last 10 s: %1").arg(live.missesLastWindow(c)));
            value = static_cast<double>(since);
            rose = e.last >= 0 && value > e.last;
        }
        if (rose)
            e.card->flash();
        e.last = value;
    }
}

} // namespace latprobe
