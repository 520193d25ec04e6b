// The tables against what a user reads: `latprobe run --help`, the man
// page's Kinds section and the bash completion name every kind of
// loadKinds() with exactly its own keys, and the man page's synopsis and the
// completion offer exactly the output formats of `report` and `compare`. A
// row added and not documented fails here, as `ring` once went missing from
// --help.

#include "runprogram.h"

#include "consumertable.h"
#include "loadkind.h"
#include "outputformat.h"
#include "presets.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include <map>
#include <set>

using namespace latprobe;

namespace {

using Keys = std::set<QString>;

// A kind's own keys, as a user writes them after KIND:N:.
Keys ownKeys(const LoadKind &kind)
{
    Keys keys;
    for (const LoadParam &p : kind.params)
        keys.insert(QString::fromStdString(p.key));
    if (kind.runsCommand)
        keys.insert(QStringLiteral("cmd"));
    return keys;
}

QString readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// "key=" words in `text`.
Keys keysIn(const QString &text)
{
    Keys keys;
    static const QRegularExpression key(QStringLiteral("(?:^|\\s)([a-z_]+)="));
    for (const QRegularExpressionMatch &m : key.globalMatch(text))
        keys.insert(m.captured(1));
    return keys;
}

// The man page's Kinds section, kind by kind: a kind is a `.TP` then
// `.B KIND` outside its neighbours' `.RS` blocks; its keys are its
// `.BI key= default` lines.
std::map<QString, Keys> manPageKinds(const QString &man)
{
    std::map<QString, Keys> kinds;
    const QStringList lines = man.split(QLatin1Char('\n'));
    const qsizetype from = lines.indexOf(QStringLiteral(".SS Kinds"));
    if (from < 0)
        return kinds;
    static const QRegularExpression keyLine(QStringLiteral("^\\.BI ([a-z_]+)="));
    int depth = 0;
    Keys *current = nullptr;
    for (qsizetype i = from + 1; i < lines.size() && !lines[i].startsWith(".SS "); ++i) {
        const QString &line = lines[i];
        if (line == QLatin1String(".RS"))
            ++depth;
        else if (line == QLatin1String(".RE"))
            --depth;
        else if (depth == 0 && line.startsWith(".B ") && lines[i - 1] == QLatin1String(".TP"))
            current = &kinds[line.mid(3).remove(QLatin1Char('\\'))];
        else if (const auto m = keyLine.match(line); current && m.hasMatch())
            current->insert(m.captured(1));
    }
    return kinds;
}

// The completion's kinds (`local kinds="..."`) and each one's keys (its
// `KIND) keys+="..."` line).
std::map<QString, Keys> completionKinds(const QString &script)
{
    std::map<QString, Keys> kinds;
    static const QRegularExpression list(QStringLiteral("local kinds=\"([^\"]*)\""));
    const QString names = list.match(script).captured(1);
    for (const QString &name :
         names.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts))
        kinds[name];
    static const QRegularExpression cases(QStringLiteral("^\\s+([a-z_]+)\\) keys\\+=\"([^\"]*)\""),
                                          QRegularExpression::MultilineOption);
    for (const QRegularExpressionMatch &m : cases.globalMatch(script))
        kinds[m.captured(1)] = keysIn(m.captured(2));
    return kinds;
}

// --load's help, up to the next option, a line per kind: "  KIND  key= key=".
std::map<QString, Keys> helpKinds(const QString &help)
{
    std::map<QString, Keys> kinds;
    const QStringList lines = help.split(QLatin1Char('\n'));
    qsizetype i = 0;
    while (i < lines.size() && !lines[i].trimmed().startsWith("-l,--load"))
        ++i;
    static const QRegularExpression kindLine(QStringLiteral("^\\s+([a-z_]+)(\\s.*)?$"));
    for (++i; i < lines.size() && !lines[i].trimmed().startsWith('-'); ++i)
        if (const auto m = kindLine.match(lines[i]); m.hasMatch())
            kinds[m.captured(1)] = keysIn(m.captured(2));
    return kinds;
}

// The formats the man page's synopsis gives `latprobe SUBCOMMAND --format`.
Keys manPageFormats(const QString &man, const QString &subcommand)
{
    const QRegularExpression block(QStringLiteral("\\.B latprobe %1\n\\.RB \\[ \\\\-\\\\-format\n"
                                                  "\\.BR ([a-z |]+) \\]")
                                       .arg(subcommand));
    Keys formats;
    for (const QString &f : block.match(man).captured(1).split(QLatin1Char('|')))
        if (!f.trimmed().isEmpty())
            formats.insert(f.trimmed());
    return formats;
}

// The formats the completion offers after `latprobe SUBCOMMAND -f`.
Keys completionFormats(const QString &script, const QString &subcommand)
{
    const QRegularExpression block(
        QStringLiteral("\\s%1\\)\\s+case \\$prev in\\s+-f \\| --format\\)\\s+"
                       "COMPREPLY=\\(\\$\\(compgen -W \"([^\"]*)\"")
            .arg(subcommand));
    Keys formats;
    for (const QString &f : block.match(script).captured(1).split(QLatin1Char(' ')))
        if (!f.isEmpty())
            formats.insert(f);
    return formats;
}

template <typename Value> Keys tableFormats(std::span<const OutputFormat<Value>> formats)
{
    Keys names;
    for (const std::string &name : formatNames(formats))
        names.insert(QString::fromStdString(name));
    return names;
}

// The consumers `--consumers` takes: every preset's.
Keys presetConsumers()
{
    Keys names;
    for (const Preset &p : presets())
        for (const ConsumerConfig &c : p.consumers)
            names.insert(QString::fromStdString(c.name));
    return names;
}

// The consumers the completion offers after `latprobe run -c`.
Keys completionConsumers(const QString &script)
{
    const QRegularExpression block(QStringLiteral("-c \\| --consumers\\)[^;]*?"
                                                  "COMPREPLY=\\(\\$\\(compgen -W \"([^\"]*)\""));
    Keys names;
    for (const QString &n : block.match(script).captured(1).split(QLatin1Char(' ')))
        if (!n.isEmpty())
            names.insert(n);
    return names;
}

// The man page's CONSUMERS section: its `.TP` then `.B NAME` entries.
Keys manPageConsumers(const QString &man)
{
    const qsizetype from = man.indexOf(QStringLiteral("\n.SH CONSUMERS\n"));
    const qsizetype to = man.indexOf(QStringLiteral("\n.SH "), from + 1);
    Keys names;
    static const QRegularExpression entry(QStringLiteral("\n\\.TP\n\\.B ([a-z]+)\n"));
    for (const QRegularExpressionMatch &m : entry.globalMatch(man.mid(from, to - from)))
        names.insert(m.captured(1));
    return names;
}

QString describe(const Keys &keys)
{
    QStringList out;
    for (const QString &k : keys)
        out << k;
    return QLatin1Char('{') + out.join(QStringLiteral(", ")) + QLatin1Char('}');
}

} // namespace

class TestLoadDocs : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void everyKindWithItsKeys_data();
    void everyKindWithItsKeys();
    void noKindTheTableLacks_data();
    void noKindTheTableLacks();
    void outputFormatsAsTheTableHasThem_data();
    void outputFormatsAsTheTableHasThem();
    void consumersAsThePresetsHaveThem();

private:
    // Where: "run --help", "man page", "completion".
    std::map<QString, std::map<QString, Keys>> m_documented;
    QString m_man, m_completion, m_runHelp;
};

void TestLoadDocs::initTestCase()
{
    const QString binary = qEnvironmentVariable("LATPROBE_BINARY");
    QVERIFY2(!binary.isEmpty(), "LATPROBE_BINARY must name the latprobe binary (CTest sets it)");
    const Outcome help = runProgram(binary, {"run", "--help"});
    QVERIFY2(help.finished && help.exitCode == 0, qUtf8Printable(help.describe()));
    const QString man = readFile(PACKAGING_DIR "/latprobe.1.in");
    const QString completion = readFile(PACKAGING_DIR "/latprobe.bash-completion");
    QVERIFY2(!man.isEmpty(), PACKAGING_DIR "/latprobe.1.in");
    QVERIFY2(!completion.isEmpty(), PACKAGING_DIR "/latprobe.bash-completion");
    m_documented["run --help"] = helpKinds(help.out);
    m_documented["man page"] = manPageKinds(man);
    m_documented["completion"] = completionKinds(completion);
    m_man = man;
    m_completion = completion;
    m_runHelp = help.out;
}

void TestLoadDocs::everyKindWithItsKeys_data()
{
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("kind");
    for (const char *where : {"run --help", "man page", "completion"})
        for (const LoadKind &k : loadKinds())
            QTest::addRow("%s: %s", where, k.name.c_str())
                << QString(where) << QString::fromStdString(k.name);
}

void TestLoadDocs::everyKindWithItsKeys()
{
    QFETCH(QString, where);
    QFETCH(QString, kind);
    const std::map<QString, Keys> &documented = m_documented.at(where);
    const auto it = documented.find(kind);
    QVERIFY2(it != documented.end(),
             qUtf8Printable(QStringLiteral("%1 does not name load kind %2").arg(where, kind)));
    const Keys expected = ownKeys(*findLoadKind(kind.toStdString()));
    QVERIFY2(it->second == expected,
             qUtf8Printable(QStringLiteral("%1 gives %2 the keys %3; the table: %4")
                                .arg(where, kind, describe(it->second), describe(expected))));
}

void TestLoadDocs::noKindTheTableLacks_data()
{
    QTest::addColumn<QString>("where");
    for (const char *where : {"man page", "completion"})
        QTest::newRow(where) << QString(where);
}

void TestLoadDocs::noKindTheTableLacks()
{
    QFETCH(QString, where);
    for (const auto &[kind, keys] : m_documented.at(where))
        QVERIFY2(findLoadKind(kind.toStdString()),
                 qUtf8Printable(QStringLiteral("%1 names %2, no load kind").arg(where, kind)));
}

void TestLoadDocs::outputFormatsAsTheTableHasThem_data()
{
    QTest::addColumn<QString>("subcommand");
    QTest::newRow("report") << QStringLiteral("report");
    QTest::newRow("compare") << QStringLiteral("compare");
}

void TestLoadDocs::outputFormatsAsTheTableHasThem()
{
    QFETCH(QString, subcommand);
    const Keys table = subcommand == QLatin1String("report") ? tableFormats(runFormats())
                                                             : tableFormats(comparisonFormats());
    const Keys man = manPageFormats(m_man, subcommand);
    const Keys completion = completionFormats(m_completion, subcommand);
    QVERIFY2(man == table, qUtf8Printable(QStringLiteral("the man page's %1 --format: %2; the "
                                                         "table: %3")
                                              .arg(subcommand, describe(man), describe(table))));
    QVERIFY2(completion == table,
             qUtf8Printable(QStringLiteral("the completion's %1 --format: %2; the table: %3")
                                .arg(subcommand, describe(completion), describe(table))));
}

void TestLoadDocs::consumersAsThePresetsHaveThem()
{
    const Keys table = presetConsumers();
    QVERIFY2(table.size() >= 6, qUtf8Printable(describe(table)));
    const Keys completion = completionConsumers(m_completion);
    QVERIFY2(completion == table,
             qUtf8Printable(QStringLiteral("the completion's --consumers: %1; the presets': %2")
                                .arg(describe(completion), describe(table))));
    const Keys man = manPageConsumers(m_man);
    for (const QString &name : table) {
        QVERIFY2(man.count(name),
                 qUtf8Printable(QStringLiteral("the man page's CONSUMERS lacks %1 (it has %2)")
                                    .arg(name, describe(man))));
        QVERIFY2(consumerTraits(name.toStdString()).role != ConsumerRole::Unknown,
                 qUtf8Printable(name + " has no row in the consumer table"));
        const QRegularExpression word(QStringLiteral("\\b%1\\b").arg(name));
        QVERIFY2(m_runHelp.contains(word),
                 qUtf8Printable(QStringLiteral("run --help does not name consumer %1").arg(name)));
    }
}

QTEST_GUILESS_MAIN(TestLoadDocs)
#include "tst_loaddocs.moc"
