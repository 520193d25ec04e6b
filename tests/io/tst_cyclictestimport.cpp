#include "cyclictestimport.h"
#include "runfile.h"

#include <QtTest>

using namespace latprobe;

class TestCyclictestImport : public QObject
{
    Q_OBJECT

private slots:
    // The fixture is Debian rt-tests 2.4's own output:
    // cyclictest --policy=other -t 1 -i 1000 -D 20 -h 100000 --json=... -q --laptop
    void importsDebiansCyclictest()
    {
        const Run run = readAnyRunFile(FIXTURES_DIR "/cyclictest-2.4-idle.json");
        QCOMPARE(run.scenario, std::string("cyclictest"));
        QCOMPARE(run.system.kernelRelease, std::string("6.18.44-fc-v782"));
        QCOMPARE(run.requested.policy, SchedPolicy::Other);
        QCOMPARE(run.phases.size(), size_t{1});
        const ConsumerStats &w = run.phases[0].consumers.at(0);
        QCOMPARE(w.name, std::string("wakeup"));
        QCOMPARE(w.samples, uint64_t{19698}); // thread.0.cycles
        QCOMPARE(w.minUs, int64_t{15});
        QCOMPARE(w.maxUs, int64_t{11267});
        QCOMPARE(w.expected, uint64_t{20000}); // -D 20 / -i 1000
        QVERIFY(w.p50Us >= w.minUs && w.p50Us <= w.p99Us && w.p99Us <= w.maxUs);
        QCOMPARE(run.consumers.at(0).config.periodNs, int64_t{1000000});
        QCOMPARE(run.consumers.at(0).config.role, ConsumerRole::Wakeup);
    }

    void percentilesMatchTheHistogram()
    {
        // 100 cycles: 90 at 10 us, 9 at 50 us, 1 past the histogram (max 2000).
        const std::string json = R"({"file_version": 1,
            "cmdline:": "cyclictest --policy=other -i 500 -D 1m -h 1000 --json=x",
            "rt_test_version:": "2.40", "num_threads": 1,
            "sysinfo": {"release": "6.1.0", "version": "#1", "machine": "x86_64"},
            "thread": {"0": {"histogram": {"10": 90, "50": 9},
                              "cycles": 100, "min": 10, "max": 2000, "avg": 33.5}}})";
        const Run run = importCyclictestJson(json, "c.json");
        const ConsumerStats &w = run.phases[0].consumers[0];
        QCOMPARE(w.p50Us, int64_t{10});
        QCOMPARE(w.p90Us, int64_t{10});
        QCOMPARE(w.p99Us, int64_t{50});
        QCOMPARE(w.p999Us, int64_t{2000});
        QCOMPARE(w.over1ms, uint64_t{1});
        QCOMPARE(w.expected, uint64_t{120000}); // 60 s / 500 us
    }

    void rejectsWhatIsNotCyclictest_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("field");
        QTest::newRow("no histogram")
            << R"({"file_version": 1, "rt_test_version:": "2.40", "num_threads": 1, "thread": {"0": {"cycles": 5}}})"
            << "thread.0.histogram";
        QTest::newRow("no threads")
            << R"({"file_version": 1, "rt_test_version:": "2.40", "num_threads": 0, "thread": {}})"
            << "thread";
        QTest::newRow("more in buckets than cycles")
            << R"({"file_version": 1, "rt_test_version:": "2.40", "num_threads": 1, "thread": {"0": {"cycles": 5, "max": 10, "histogram": {"3": 9}}}})"
            << "thread.0.histogram.3";
        QTest::newRow("absurd cycle count")
            << R"({"file_version": 1, "rt_test_version:": "2.40", "num_threads": 1, "thread": {"0": {"cycles": 18446744073709551615, "max": 10, "histogram": {}}}})"
            << "thread.0.cycles";
        // Found by fuzz_cyclictest and review under ASan: each would crash,
        // hang, allocate gigabytes or convert out of range before its fix.
        QTest::newRow("number too large for a double")
            << R"({"file_version": 1, "thread": {"0": {"cycles": 1, "max": 1e400, "histogram": {}}}})"
            << "not valid JSON: a number out of range";
        QTest::newRow("bucket past 32 bits (read out of bounds)")
            << R"({"file_version": 1, "thread": {"0": {"cycles": 5000000000, "max": 10, "histogram": {"0": 5000000000}}}})"
            << "thread.0.histogram.0";
        QTest::newRow("bucket spelled twice, adding up past 32 bits")
            << R"({"file_version": 1, "thread": {"0": {"cycles": 4294967300, "max": 10, "histogram": {"10": 4294967295, "010": 5}}}})"
            << "thread.0.histogram.010";
        QTest::newRow("remainder past 32 bits in the max's bucket")
            << R"({"file_version": 1, "thread": {"0": {"cycles": 4294967300, "max": 10, "histogram": {"10": 4294967295}}}})"
            << "thread.0.cycles";
        QTest::newRow("many buckets past the histogram (gigabytes)")
            << R"({"file_version": 1, "thread": {"0": {"cycles": 100000000, "max": 200000, "histogram": {"100001": 999999, "100002": 999999}}}})"
            << "thread.0.histogram.100002";
        QTest::newRow("many threads past the histogram (minutes)")
            << R"({"file_version": 1, "thread": {"0": {"cycles": 900000, "max": 200000, "histogram": {}}, "1": {"cycles": 900000, "max": 200000, "histogram": {}}}})"
            << "thread.1.cycles";
        QTest::newRow("max a float too big for int64")
            << R"({"file_version": 1, "thread": {"0": {"cycles": 1, "max": 1e30, "histogram": {}}}})"
            << "thread.0.max";
        QTest::newRow("max a string")
            << R"({"file_version": 1, "thread": {"0": {"cycles": 1, "max": "9", "histogram": {}}}})"
            << "thread.0.max";
        QTest::newRow("avg a string")
            << R"({"file_version": 1, "thread": {"0": {"cycles": 1, "max": 1, "avg": "x", "histogram": {}}}})"
            << "thread.0.avg";
        QTest::newRow("empty bucket name")
            << R"({"file_version": 1, "thread": {"0": {"cycles": 1, "max": 1, "histogram": {"": 1}}}})"
            << "thread.0.histogram.";
        QTest::newRow("interval not a number")
            << R"({"file_version": 1, "cmdline": "cyclictest -i nan", "thread": {"0": {"cycles": 1, "histogram": {}}}})"
            << "cmdline";
        QTest::newRow("interval below 1 us (period 0 ns)")
            << R"({"file_version": 1, "cmdline": "cyclictest -i 0.0001", "thread": {"0": {"cycles": 1, "histogram": {}}}})"
            << "cmdline";
        QTest::newRow("duration past a year")
            << R"({"file_version": 1, "cmdline": "cyclictest -D 1e300", "thread": {"0": {"cycles": 1, "histogram": {}}}})"
            << "cmdline";
        QTest::newRow("negative duration")
            << R"({"file_version": 1, "cmdline": "cyclictest -D -5", "thread": {"0": {"cycles": 1, "histogram": {}}}})"
            << "cmdline";
        QTest::newRow("file_version past 32 bits")
            << R"({"file_version": 4294967297, "thread": {"0": {"cycles": 1, "histogram": {}}}})"
            << "file_version";
    }

    void rejectsWhatIsNotCyclictest()
    {
        QFETCH(QString, json);
        QFETCH(QString, field);
        try {
            importCyclictestJson(json.toStdString(), "c.json");
            QFAIL("accepted a malformed file");
        } catch (const RunFileError &e) {
            QVERIFY2(QString(e.what()).startsWith("c.json: " + field), e.what());
            QVERIFY2(!QString(e.what()).contains('\n'), "an error is one line");
        }
    }
};

QTEST_APPLESS_MAIN(TestCyclictestImport)
#include "tst_cyclictestimport.moc"
