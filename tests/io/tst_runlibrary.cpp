#include "runfile.h"
#include "runlibrary.h"
#include "samplerun.h"

#include <QtTest>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace latprobe;
using latprobe::test::realisticRun;
namespace fs = std::filesystem;

namespace {

Run runAt(const std::string &start, const std::string &scenario = "run")
{
    Run run = realisticRun();
    run.startTime = start;
    run.scenario = scenario;
    run.thresholdStep = -1;
    return run;
}

void touch(const std::string &path, const std::string &text)
{
    std::ofstream(path) << text;
}

} // namespace

class TestRunLibrary : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        m_lib = m_dir->path().toStdString() + "/runs";
    }

    void theFolderFollowsXdgUnlessToldOtherwise()
    {
        qputenv("LATPROBE_LIBRARY", "");
        qputenv("XDG_DATA_HOME", "/data/me");
        QCOMPARE(RunLibrary::defaultDir(), std::string("/data/me/latprobe/runs"));
        qunsetenv("XDG_DATA_HOME");
        qputenv("HOME", "/home/tester");
        QCOMPARE(RunLibrary::defaultDir(), std::string("/home/tester/.local/share/latprobe/runs"));
        qputenv("LATPROBE_LIBRARY", "/srv/runs");
        QCOMPARE(RunLibrary::defaultDir(), std::string("/srv/runs"));
        qunsetenv("LATPROBE_LIBRARY");
    }

    void namesSayWhenWhichKernelAndWhatRan()
    {
        const RunLibrary lib(m_lib);
        const Run run = runAt("2026-12-01T03:12:40Z", "quick");
        QCOMPARE(lib.pathFor(run), m_lib + "/latprobe-2026-12-01T03-12-40-6.18.44-quick.json");
        std::string error;
        QVERIFY2(lib.save(run, lib.pathFor(run), error), error.c_str());
        // Another run started in the same second gets a name of its own.
        QCOMPARE(lib.pathFor(run), m_lib + "/latprobe-2026-12-01T03-12-40-6.18.44-quick-2.json");
        Run odd = runAt("2026-12-01T03:12:41Z", "my scenario/../x");
        odd.system.kernelRelease = "6.19.0-rc1 bore";
        QCOMPARE(lib.pathFor(odd),
                 m_lib + "/latprobe-2026-12-01T03-12-41-6.19.0-rc1-bore-my-scenario-..-x.json");
    }

    void listsNewestFirstWithHeadlineFigures()
    {
        const RunLibrary lib(m_lib);
        std::string error;
        for (const char *start :
             {"2026-11-01T10:00:00Z", "2026-12-01T10:00:00Z", "2026-11-15T10:00:00Z"}) {
            const Run run = runAt(start);
            QVERIFY2(lib.save(run, lib.pathFor(run), error), error.c_str());
        }
        touch(m_lib + "/latprobe-broken.json", "{\"file_version\": ");
        touch(m_lib + "/notes.json", "{}"); // the user's: never listed
        const std::vector<RunLibrary::Entry> entries = lib.list();
        QCOMPARE(entries.size(), size_t(4));
        QCOMPARE(entries[0].startTime, std::string("2026-12-01T10:00:00Z"));
        QCOMPARE(entries[1].startTime, std::string("2026-11-15T10:00:00Z"));
        QCOMPARE(entries[2].startTime, std::string("2026-11-01T10:00:00Z"));
        const Run sample = realisticRun();
        uint64_t audio = 0;
        double seconds = 0;
        for (const PhaseResult &p : sample.phases) {
            seconds += p.durationS;
            for (const ConsumerStats &c : p.consumers)
                if (c.name == "audio")
                    audio += c.misses;
        }
        const auto audioColumn =
            std::find_if(entries[0].consumers.begin(), entries[0].consumers.end(),
                         [](const ConsumerSummary &c) { return c.traits->name == "audio"; });
        QVERIFY(audioColumn != entries[0].consumers.end());
        QVERIFY(audioColumn->measured);
        QCOMPARE(audioColumn->misses, audio);
        QCOMPARE(entries[0].durationS, seconds);
        QCOMPARE(entries[0].kernel, std::string("6.18.44"));
        QVERIFY(entries[0].bytes > 0);
        QVERIFY(entries[0].error.empty());
        // An unreadable file is listed, with why, last.
        QVERIFY(entries[3].path.ends_with("latprobe-broken.json"));
        QVERIFY(!entries[3].error.empty());
    }

    void aVariantRunIsListedWithItsVerdict()
    {
        const RunLibrary lib(m_lib);
        // "on" and "off" in turns over four rounds of the sample's phases.
        Run run = runAt("2026-12-05T10:00:00Z", "ab");
        const std::vector<PhaseResult> once = run.phases;
        run.phases.clear();
        for (int round = 1; round <= 4; ++round)
            for (const char *variant : {"on", "off"})
                for (PhaseResult p : once) {
                    p.round = round;
                    p.variant = variant;
                    run.phases.push_back(p);
                }
        run.variants = {{"on", {"autogroup=1"}, {}}, {"off", {"autogroup=0"}, {}}};
        std::string error;
        QVERIFY2(lib.save(run, lib.pathFor(run), error), error.c_str());
        QVERIFY2(lib.save(runAt("2026-12-04T10:00:00Z"), lib.pathFor(runAt("2026-12-04T10:00:00Z")),
                          error),
                 error.c_str());
        const std::vector<RunLibrary::Entry> entries = lib.list();
        QCOMPARE(entries.size(), size_t(2));
        QCOMPARE(entries[0].headlines.size(), size_t(1));
        // The same figures in both turns: no difference, said as the report says it.
        QCOMPARE(QString::fromStdString(entries[0].headlines[0]).section(':', 0, 0),
                 QString("off (autogroup=0) no different from on"));
        QVERIFY(entries[1].headlines.empty()); // a plain run has none
    }

    void deletesOnlyItsOwnFiles()
    {
        const RunLibrary lib(m_lib);
        std::string error;
        const Run run = runAt("2026-12-01T10:00:00Z");
        const std::string path = lib.pathFor(run);
        QVERIFY(lib.save(run, path, error));
        touch(m_lib + "/notes.json", "{}");
        QVERIFY(!lib.remove(m_lib + "/notes.json", error));
        QVERIFY2(error.find("deletes only its own files") != std::string::npos, error.c_str());
        QVERIFY(fs::exists(m_lib + "/notes.json"));
        const std::string outside = m_dir->path().toStdString() + "/latprobe-x.json";
        touch(outside, "{}");
        QVERIFY(!lib.remove(outside, error));
        QVERIFY(fs::exists(outside));
        QVERIFY2(lib.remove(path, error), error.c_str());
        QVERIFY(!fs::exists(path));
        QVERIFY(lib.list().empty());
    }

    void prunesTheOldestFirstAndNeverTheUsersFiles()
    {
        const RunLibrary lib(m_lib, RunLibrary::kDefaultMaxBytes);
        std::string error;
        std::vector<std::string> paths;
        for (int i = 0; i < 4; ++i) {
            const Run run = runAt("2026-12-01T10:00:0" + std::to_string(i) + "Z");
            paths.push_back(lib.pathFor(run));
            QVERIFY(lib.save(run, paths.back(), error));
            // Modification times a second apart, oldest first.
            fs::last_write_time(paths.back(),
                                fs::file_time_type::clock::now() - std::chrono::seconds(10 - i));
        }
        touch(m_lib + "/notes.txt", std::string(4096, 'x'));
        const uint64_t one = fs::file_size(paths[0]);
        // Room for two: the two oldest go, except the one being kept.
        const RunLibrary::Pruned pruned = lib.prune(2 * one + one / 2, paths[0]);
        QCOMPARE(pruned.files, 2);
        QVERIFY(fs::exists(paths[0])); // kept: it is being autosaved
        QVERIFY(!fs::exists(paths[1]));
        QVERIFY(!fs::exists(paths[2]));
        QVERIFY(fs::exists(paths[3]));
        QVERIFY(fs::exists(m_lib + "/notes.txt"));
    }

    void aRunsTracesAreCountedPrunedAndDeletedWithIt()
    {
        // `--save-trace` puts "<run>.trace-<n>.dat" beside the run file: the
        // library lists them in its size, and they go when it goes.
        const RunLibrary lib(m_lib);
        std::string error;
        const Run older = runAt("2026-12-01T10:00:00Z"), newer = runAt("2026-12-01T11:00:00Z");
        const std::string olderPath = lib.pathFor(older);
        QVERIFY(lib.save(older, olderPath, error));
        const std::string newerPath = lib.pathFor(newer);
        QVERIFY(lib.save(newer, newerPath, error));
        for (const std::string &run : {olderPath, newerPath})
            for (const char *trace : {"trace-1.dat", "trace-2.dat"})
                touch(m_lib + "/" + RunLibrary::traceFileName(run, trace),
                      std::string(100'000, 't'));
        // Not a run's trace: the user's, or another shape of name.
        touch(m_lib + "/mine.trace-1.dat", "x");
        touch(m_lib + "/" + fs::path(olderPath).stem().string() + ".trace-x.dat", "x");
        QCOMPARE(RunLibrary::tracesOf(olderPath).size(), size_t{2});

        const std::vector<RunLibrary::Entry> listed = lib.list();
        QCOMPARE(listed.size(), size_t{2});
        QCOMPARE(listed[1].traces, size_t{2});
        QCOMPARE(listed[1].bytes, fs::file_size(olderPath) + 200'000);

        // Room for the newer run and its traces: the older goes whole.
        const RunLibrary::Pruned pruned = lib.prune(listed[0].bytes + 1000, newerPath);
        QCOMPARE(pruned.files, 1);
        QVERIFY(!fs::exists(olderPath));
        QVERIFY(RunLibrary::tracesOf(olderPath).empty());
        QCOMPARE(RunLibrary::tracesOf(newerPath).size(), size_t{2});
        QVERIFY(fs::exists(m_lib + "/mine.trace-1.dat"));

        QVERIFY2(lib.remove(newerPath, error), error.c_str());
        QVERIFY(RunLibrary::tracesOf(newerPath).empty());
        QVERIFY(fs::exists(m_lib + "/mine.trace-1.dat"));
    }

    void aSaveThatCannotMakeTheFolderSaysWhere()
    {
        touch(m_dir->path().toStdString() + "/file", "x");
        const RunLibrary lib(m_dir->path().toStdString() + "/file/runs");
        std::string error;
        const Run run = runAt("2026-12-01T10:00:00Z");
        QVERIFY(!lib.save(run, lib.pathFor(run), error));
        QVERIFY2(error.find("cannot create the run library") == 0, error.c_str());
        QVERIFY2(error.find("LATPROBE_LIBRARY") != std::string::npos, error.c_str());
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::string m_lib;
};

QTEST_APPLESS_MAIN(TestRunLibrary)
#include "tst_runlibrary.moc"
