// The typed reads every JSON reader shares: what each type takes, what it
// refuses and the one line that says so, naming the file and the field.

#include "jsonreader.h"

#include <QTest>

#include <cstdint>
#include <limits>
#include <stdexcept>

using namespace latprobe;
using nlohmann::json;

namespace {

struct TestError : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

const JsonReader reader("t.json", throwError<TestError>);

// What reading `text`'s field "v" as a T gave: its value, or the error.
template <typename T> QString read(const std::string &text)
{
    try {
        const json j = reader.parse(text);
        return QString::fromStdString(json(reader.get<T>(j, "a.b", "v")).dump());
    } catch (const TestError &e) {
        return QString::fromStdString(e.what());
    }
}

} // namespace

class TestJsonReader : public QObject
{
    Q_OBJECT

private slots:
    void typedFields_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("string") << "string"
                                << R"({"v": "x"})"
                                << R"("x")";
        QTest::newRow("string, a number") << "string"
                                          << R"({"v": 1})"
                                          << "t.json: a.b.v: expected a string";
        QTest::newRow("bool") << "bool"
                              << R"({"v": true})"
                              << "true";
        QTest::newRow("bool, 0") << "bool"
                                 << R"({"v": 0})"
                                 << "t.json: a.b.v: expected true or false";
        QTest::newRow("double, an integer") << "double"
                                            << R"({"v": 3})"
                                            << "3.0";
        QTest::newRow("double, a string") << "double"
                                          << R"({"v": "3"})"
                                          << "t.json: a.b.v: expected a number";
        QTest::newRow("int, negative") << "int"
                                       << R"({"v": -7})"
                                       << "-7";
        QTest::newRow("int, a float") << "int"
                                      << R"({"v": 1.5})"
                                      << "t.json: a.b.v: expected an integer";
        // get<int>() would wrap these to 2 and 0.
        QTest::newRow("int, past 32 bits") << "int"
                                           << R"({"v": 4294967298})"
                                           << "t.json: a.b.v: 4294967298 is out of range";
        QTest::newRow("int, below 32 bits") << "int"
                                            << R"({"v": -2147483649})"
                                            << "t.json: a.b.v: -2147483649 is out of range";
        QTest::newRow("uint32, the largest") << "uint32"
                                             << R"({"v": 4294967295})"
                                             << "4294967295";
        QTest::newRow("uint32, negative") << "uint32"
                                          << R"({"v": -1})"
                                          << "t.json: a.b.v: must not be negative";
        QTest::newRow("uint32, past 32 bits") << "uint32"
                                              << R"({"v": 4294967296})"
                                              << "t.json: a.b.v: 4294967296 is out of range";
        QTest::newRow("uint64, negative") << "uint64"
                                          << R"({"v": -1})"
                                          << "t.json: a.b.v: must not be negative";
        // Every integer a file holds fits an int64_t; one that does not was
        // refused before the readers shared this code, and still is.
        QTest::newRow("int64, the largest") << "int64"
                                            << R"({"v": 9223372036854775807})"
                                            << "9223372036854775807";
        QTest::newRow("uint64, past int64") << "uint64"
                                            << R"({"v": 9223372036854775808})"
                                            << "t.json: a.b.v: 9223372036854775808 is out of range";
        QTest::newRow("int64, past int64") << "int64"
                                           << R"({"v": 18446744073709551615})"
                                           << "t.json: a.b.v: 18446744073709551615 is out of range";
        QTest::newRow("missing") << "int"
                                 << R"({"w": 1})"
                                 << "t.json: a.b.v: missing";
        QTest::newRow("not an object") << "int"
                                       << R"([1])"
                                       << "t.json: a.b: is not an object";
    }

    void typedFields()
    {
        QFETCH(QString, type);
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const std::string t = text.toStdString();
        const QString got = type == "string"   ? read<std::string>(t)
                            : type == "bool"   ? read<bool>(t)
                            : type == "double" ? read<double>(t)
                            : type == "int"    ? read<int>(t)
                            : type == "uint32" ? read<uint32_t>(t)
                            : type == "int64"  ? read<int64_t>(t)
                                               : read<uint64_t>(t);
        QCOMPARE(got, expected);
    }

    void optionalFieldIsCheckedWhenPresent()
    {
        const json j = json::parse(R"({"present": 5, "wrong": "5"})");
        QCOMPARE(reader.get<int>(j, "", "present", -1), 5);
        QCOMPARE(reader.get<int>(j, "", "absent", -1), -1);
        QVERIFY_THROWS_EXCEPTION(TestError, reader.get<int>(j, "", "wrong", -1));
        QVERIFY_THROWS_EXCEPTION(TestError, reader.get<int>(json::array(), "", "present", -1));
    }

    void topLevelPathIsTheKey()
    {
        QCOMPARE(JsonReader::join("", "k"), std::string("k"));
        QCOMPARE(JsonReader::join("a[0]", "k"), std::string("a[0].k"));
        try {
            reader.array(json::parse(R"({"list": {}})"), "", "list");
            QFAIL("an object was taken for an array");
        } catch (const TestError &e) {
            QCOMPARE(QString(e.what()), QString("t.json: list: expected an array"));
        }
    }

    void parseErrorsAreOneLineWithLineAndColumn_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("truncated") << "{\n  \"a\": [1,\n"
                                   << "t.json: not valid JSON at line 3";
        QTest::newRow("empty") << ""
                               << "t.json: not valid JSON at line 1, column 1";
        // nlohmann throws out_of_range here, not a parse_error.
        QTest::newRow("number past a double") << R"({"a": 1e400})"
                                              << "t.json: not valid JSON: a number out of range";
    }

    void parseErrorsAreOneLineWithLineAndColumn()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        try {
            reader.parse(text.toStdString(), ": is it JSON?");
            QFAIL("parsed");
        } catch (const TestError &e) {
            const QString what = e.what();
            QVERIFY2(what.startsWith(expected), e.what());
            QVERIFY2(!what.contains('\n'), e.what());
            QVERIFY2(what.endsWith(": is it JSON?") || what.endsWith("out of range"), e.what());
        }
    }

    void unreadableFileNamesIt()
    {
        const JsonReader missing("/nonexistent/latprobe.json", throwError<TestError>);
        try {
            missing.readWhole(1024);
            QFAIL("read a file that does not exist");
        } catch (const TestError &e) {
            QVERIFY2(QString(e.what()).startsWith("/nonexistent/latprobe.json: cannot open"),
                     e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestJsonReader)
#include "tst_jsonreader.moc"
