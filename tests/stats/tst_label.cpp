// Labels: a text kept once per process, so that the thousands of miss
// explanations' comms and policies cost a pointer each.

#include "label.h"

#include <QTest>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

using namespace latprobe;

class TestLabel : public QObject
{
    Q_OBJECT

private slots:
    void sameTextIsKeptOnce();
    void readsAsItsText();
    void sortsByText();
    void threadsAgree();
};

void TestLabel::sameTextIsKeptOnce()
{
    const std::string built = std::string("SCHED_OTHER") + " nice 0";
    const Label a(built), b("SCHED_OTHER nice 0"), c{std::string_view(built)};
    QVERIFY(a == b && b == c);
    QCOMPARE(&a.str(), &b.str());
    QCOMPARE(&a.str(), &c.str());
    QVERIFY(!(a == Label("SCHED_OTHER nice 1")));
    QVERIFY(Label().empty() && Label("") == Label());
}

void TestLabel::readsAsItsText()
{
    const Label l("hackbench");
    const std::string &text = l; // what QString::fromStdString and JSON writers take
    QCOMPARE(text, std::string("hackbench"));
    QVERIFY(l == "hackbench" && !(l == "hackbenc"));
    QCOMPARE(std::string(l.c_str()), std::string("hackbench"));
    QCOMPARE(l.size(), size_t{9});
}

void TestLabel::sortsByText()
{
    // Interned in the reverse order, so that pointer order would differ.
    std::vector<Label> labels{Label("zeta-task"), Label("mid-task"), Label("alpha-task")};
    std::sort(labels.begin(), labels.end());
    QCOMPARE(labels.front().str(), std::string("alpha-task"));
    QCOMPARE(labels.back().str(), std::string("zeta-task"));
}

void TestLabel::threadsAgree()
{
    // The explainer interns on its thread while a run file is read on another.
    std::vector<Label> seen(8);
    std::vector<std::thread> threads;
    for (size_t i = 0; i < seen.size(); ++i)
        threads.emplace_back([&seen, i] {
            for (int k = 0; k < 1000; ++k)
                Label(std::to_string(k) + "-other");
            seen[i] = Label("shared-by-threads");
        });
    for (std::thread &t : threads)
        t.join();
    for (const Label &l : seen)
        QCOMPARE(&l.str(), &seen.front().str());
}

QTEST_APPLESS_MAIN(TestLabel)
#include "tst_label.moc"
