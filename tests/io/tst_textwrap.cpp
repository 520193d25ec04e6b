#include "textwrap.h"

#include <QtTest>

using namespace latprobe;

class TestTextWrap : public QObject
{
    Q_OBJECT

private slots:
    void shortTextIsOneLine()
    {
        QCOMPARE(wrapText("usable up to burn x4", 72), std::string("usable up to burn x4\n"));
    }

    void longTextBreaksAtSpacesWithinTheWidth()
    {
        const std::string text =
            "run 2 worse: audio misses/min x3.1 [2.2, 4.5], video p99 +18 % [+9, +27]; wakeup ~";
        const std::string out = wrapText(text, 40, "  ");
        // As Python's textwrap.wrap(text, 40, subsequent_indent="  ") has it.
        QCOMPARE(out, std::string("run 2 worse: audio misses/min x3.1 [2.2,\n"
                                  "  4.5], video p99 +18 % [+9, +27];\n"
                                  "  wakeup ~\n"));
    }

    void leadingSpacesStayOnEveryLine()
    {
        QCOMPARE(wrapText("  aaaa bbbb cccc", 11, ""), std::string("  aaaa bbbb\n  cccc\n"));
    }

    void aWordLongerThanALineIsCutNotOverflowed()
    {
        const std::string out = wrapText("x " + std::string(30, 'y'), 12, "");
        for (size_t start = 0, end; (end = out.find('\n', start)) != std::string::npos;
             start = end + 1)
            QVERIFY2(end - start <= 12, out.c_str());
        QCOMPARE(std::count(out.begin(), out.end(), 'y'), 30);
    }

    void aCommandIsNeverCutButGetsALineOfItsOwn()
    {
        const std::string path = "/home/tester/.local/share/latprobe/runs/"
                                 "latprobe-2026-12-05T10-00-00-6.18.44-ab.trace-4.dat";
        QCOMPARE(commandLine("  or:", "kernelshark /tmp/a.dat", 72),
                 std::string("  or: kernelshark /tmp/a.dat\n"));
        QCOMPARE(commandLine("  open it: ", "kernelshark " + path, 72),
                 "  open it:\n      kernelshark " + path + "\n");
    }

    void emptyTextIsAnEmptyLine() { QCOMPARE(wrapText("", 72), std::string("\n")); }
};

QTEST_APPLESS_MAIN(TestTextWrap)
#include "tst_textwrap.moc"
