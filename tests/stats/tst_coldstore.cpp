// The run's cold store: what goes in comes back, the file has no name from
// the start (so a kill -9 leaves nothing), and a folder it cannot write to
// gives no store rather than an error.

#include "coldstore.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <cstdint>
#include <numeric>
#include <vector>

using namespace latprobe;

class TestColdStore : public QObject
{
    Q_OBJECT

private slots:
    void bytesComeBackWhereTheyWerePut()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto store = ColdStore::open(dir.path().toLocal8Bit().constData());
        QVERIFY(store);
        std::vector<uint8_t> a(100000), b(3, 7);
        std::iota(a.begin(), a.end(), uint8_t{0});
        const auto refA = store->put(a), refB = store->put(b), empty = store->put({});
        QVERIFY(refA && refB && empty);
        QCOMPARE(store->bytes(), uint64_t{100003});
        QCOMPARE(store->get(*refB), b);
        QCOMPARE(store->get(*refA), a);
        QVERIFY(store->get(*empty).empty());
        // Nothing in the folder, while the store is open and after.
        QCOMPARE(
            QDir(dir.path())
                .entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System),
            QStringList());
    }

    void noFolderNoStore() { QVERIFY(!ColdStore::open("/nonexistent/latprobe-cold-store-test")); }
};

QTEST_GUILESS_MAIN(TestColdStore)
#include "tst_coldstore.moc"
