// Which pages go into which trace.dat (`--save-trace`), on made-up pages:
// overlapping windows share a file, a window takes only the pages it
// meets, the cap leaves windows out and says so, a file that cannot be
// written is named as not saved.

#include "tracewindowsaver.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace latprobe;

namespace {

TraceDatFormats formats()
{
    TraceDatFormats f;
    f.pageSize = 4096;
    f.cpus = 2;
    f.headerPage = "field: u64 timestamp;\n";
    return f;
}

RawPagePtr page(int cpu, int64_t from, int64_t to)
{
    auto p = std::make_shared<RawPage>();
    p->cpu = cpu;
    p->from = from;
    p->to = to;
    p->bytes.assign(4096, static_cast<char>('a' + from % 26));
    return p;
}

// The size of a file of exactly `pages`.
qint64 sizeWith(const std::vector<RawPagePtr> &pages)
{
    return static_cast<qint64>(traceDatBytes(formats(), pages, {}).size());
}

qint64 sizeOf(const QTemporaryDir &dir, const std::string &name)
{
    return QFileInfo(dir.filePath(QString::fromStdString(name))).size();
}

} // namespace

class TestTraceWindowSaver : public QObject
{
    Q_OBJECT

private slots:
    void overlappingWindowsShareOneFile();
    void aWindowTakesOnlyThePagesItMeets();
    void aReadsLastPageEndsWhereTheNextReadBegins();
    void theCapLeavesWindowsOut();
    void aFileThatCannotBeWrittenIsNamedAsNotSaved();
};

void TestTraceWindowSaver::overlappingWindowsShareOneFile()
{
    QTemporaryDir dir;
    TraceWindowSaver saver(dir.path().toStdString(), 64 << 20, formats());
    const std::vector<RawPagePtr> pages = {page(0, 0, 10), page(0, 10, 20), page(0, 20, 30),
                                           page(1, 0, 30)};
    saver.addPages(std::vector<RawPagePtr>(pages));
    const std::string first = saver.add({5, 12}, {});
    QCOMPARE(saver.add({11, 25}, {}), first);  // overlaps the first: the same file
    QCOMPARE(saver.totals().files, size_t{0}); // still open to more
    saver.writeBefore(25);                     // a later miss's window may still reach it
    QCOMPARE(saver.totals().files, size_t{0});
    saver.writeBefore(26); // none can now
    QCOMPARE(saver.totals().files, size_t{1});
    QCOMPARE(sizeOf(dir, first), sizeWith(pages)); // every page, each once
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"trace-1.dat"});
}

void TestTraceWindowSaver::aWindowTakesOnlyThePagesItMeets()
{
    QTemporaryDir dir;
    TraceWindowSaver saver(dir.path().toStdString(), 64 << 20, formats());
    const RawPagePtr early = page(0, 0, 10), middle = page(0, 10, 20), late = page(0, 50, 60);
    saver.addPages({early, middle, late});
    const std::string a = saver.add({12, 15}, {});
    const std::string b = saver.add({52, 55}, {}); // apart: a file of its own
    QVERIFY(a != b);
    saver.writeAll();
    QCOMPARE(saver.totals().files, size_t{2});
    QCOMPARE(sizeOf(dir, a), sizeWith({middle}));
    QCOMPARE(sizeOf(dir, b), sizeWith({late}));
    // A window no page meets (its pages went before) saves no file.
    QCOMPARE(saver.add({100, 110}, {}), std::string());
}

void TestTraceWindowSaver::aReadsLastPageEndsWhereTheNextReadBegins()
{
    // The last page a read takes from a CPU has no known end: until the
    // next read it seems to meet every later window. Once the next read's
    // first page of that CPU comes, it ends there.
    QTemporaryDir dir;
    TraceWindowSaver saver(dir.path().toStdString(), 64 << 20, formats());
    const RawPagePtr lastOfRead1 = page(0, 10, INT64_MAX);
    saver.addPages({page(0, 0, 10), lastOfRead1});
    const RawPagePtr read2 = page(0, 100, INT64_MAX);
    saver.addPages({read2});
    QCOMPARE(lastOfRead1->to, int64_t{100});
    const std::string file = saver.add({105, 110}, {});
    saver.writeAll();
    QCOMPARE(sizeOf(dir, file), sizeWith({read2}));
    // Trimming keeps what a later window can reach.
    saver.trim(101);
    QCOMPARE(saver.recentPages(), size_t{1});
    saver.trim(INT64_MAX);
    QCOMPARE(saver.recentPages(), size_t{0});
}

void TestTraceWindowSaver::theCapLeavesWindowsOut()
{
    QTemporaryDir dir;
    // Room for one file of two pages.
    const auto cap = static_cast<uint64_t>(sizeWith({page(0, 0, 1), page(0, 1, 2)}));
    TraceWindowSaver saver(dir.path().toStdString(), cap, formats());
    saver.addPages({page(0, 0, 10), page(0, 10, 20), page(0, 50, 60), page(0, 60, 70)});
    QVERIFY(!saver.add({5, 15}, {}).empty());
    QCOMPARE(saver.add({55, 65}, {}), std::string()); // would pass the cap
    saver.writeAll();
    QCOMPARE(saver.totals().files, size_t{1});
    QCOMPARE(saver.totals().overCap, size_t{1});
    QVERIFY(saver.totals().bytes <= cap);
}

void TestTraceWindowSaver::aFileThatCannotBeWrittenIsNamedAsNotSaved()
{
    TraceWindowSaver saver("/nonexistent/latprobe-traces", 64 << 20, formats());
    saver.addPages({page(0, 0, 10)});
    const std::string name = saver.add({1, 2}, {});
    saver.writeAll();
    QCOMPARE(saver.totals().files, size_t{0});
    QCOMPARE(saver.totals().failed, std::vector<std::string>{name});
    QVERIFY2(saver.totals().error.find("/nonexistent/latprobe-traces/" + name) !=
                     std::string::npos &&
                 saver.totals().error.find('\n') == std::string::npos,
             saver.totals().error.c_str());
}

QTEST_GUILESS_MAIN(TestTraceWindowSaver)
#include "tst_tracewindowsaver.moc"
