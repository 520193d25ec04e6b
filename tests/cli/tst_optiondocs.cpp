// What a user reads against what the binary and the tables say: every
// option `latprobe --help` and each subcommand's --help list is in the man
// page, every subcommand has its entry there, and the variant settings of
// settingKinds() are exactly those the man page's VARIANTS section, `run
// --help` and the bash completion offer. The README leaves the reference to
// the man page; an option added and not documented fails here.

#include "runprogram.h"

#include "presets.h"
#include "settingkind.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include <set>

using namespace latprobe;

namespace {

using Names = std::set<QString>;

QString readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

QString describe(const Names &names)
{
    QStringList out;
    for (const QString &n : names)
        out << n;
    return QLatin1Char('{') + out.join(QStringLiteral(", ")) + QLatin1Char('}');
}

// The options a CLI11 help lists: "  -d,--duration FLOAT ..." gives -d and
// --duration; --help is everyone's.
Names helpOptions(const QString &help)
{
    Names options;
    static const QRegularExpression line(QStringLiteral("^  (-[A-Za-z],)?(--[a-z][a-z-]*)"),
                                         QRegularExpression::MultilineOption);
    for (const QRegularExpressionMatch &m : line.globalMatch(help)) {
        if (m.captured(2) == QLatin1String("--help"))
            continue;
        options.insert(m.captured(2));
        if (!m.captured(1).isEmpty())
            options.insert(m.captured(1).chopped(1));
    }
    return options;
}

// The subcommands `latprobe --help` lists under "Subcommands:".
Names helpSubcommands(const QString &help)
{
    Names names;
    const qsizetype from = help.indexOf(QStringLiteral("Subcommands:"));
    static const QRegularExpression line(QStringLiteral("^  ([a-z]+) "),
                                         QRegularExpression::MultilineOption);
    for (const QRegularExpressionMatch &m : line.globalMatch(help.mid(from < 0 ? 0 : from)))
        names.insert(m.captured(1));
    return names;
}

// The man page as text: roff's escaped hyphens plain, fonts dropped.
QString manText(const QString &roff)
{
    QString text = roff;
    text.replace(QStringLiteral("\\-"), QStringLiteral("-"));
    static const QRegularExpression font(QStringLiteral("\\\\f[BIRP]"));
    text.remove(font);
    return text;
}

bool namesOption(const QString &manText, const QString &option)
{
    const QRegularExpression word(
        QStringLiteral("(?<![\\w-])%1(?![\\w-])").arg(QRegularExpression::escape(option)));
    return word.match(manText).hasMatch();
}

// The keys of the man page's VARIANTS section: each `.BI key= value` line.
Names manPageSettings(const QString &roff)
{
    Names keys;
    const qsizetype from = roff.indexOf(QStringLiteral("\n.SH VARIANTS\n"));
    if (from < 0)
        return keys;
    const qsizetype to = roff.indexOf(QStringLiteral("\n.SH "), from + 1);
    static const QRegularExpression key(QStringLiteral("^\\.BI ([a-z_]+)="),
                                        QRegularExpression::MultilineOption);
    for (const QRegularExpressionMatch &m : key.globalMatch(roff.mid(from, to - from)))
        keys.insert(m.captured(1));
    return keys;
}

// The settings --variant's help lists, a line each: "    autogroup=0|1".
Names helpSettings(const QString &help)
{
    Names keys;
    const qsizetype from = help.indexOf(QStringLiteral("--variant"));
    const qsizetype to = help.indexOf(QStringLiteral("\n  -"), from + 1);
    static const QRegularExpression line(QStringLiteral("^\\s{20,}([a-z_]+)="),
                                         QRegularExpression::MultilineOption);
    for (const QRegularExpressionMatch &m : line.globalMatch(help.mid(from, to - from)))
        keys.insert(m.captured(1));
    return keys;
}

// The completion's settings (`local settings="autogroup= ..."`).
Names completionSettings(const QString &script)
{
    Names keys;
    static const QRegularExpression list(QStringLiteral("local settings=\"([^\"]*)\""));
    static const QRegularExpression key(QStringLiteral("([a-z_]+)="));
    for (const QRegularExpressionMatch &m : key.globalMatch(list.match(script).captured(1)))
        keys.insert(m.captured(1));
    return keys;
}

// The completion's words for a list (`local presets="default ..."`).
Names completionWords(const QString &script, const QString &list)
{
    const QRegularExpression words(QStringLiteral("local %1=\"([^\"]*)\"").arg(list));
    const QString found = words.match(script).captured(1);
    const QStringList split = found.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    return {split.begin(), split.end()};
}

Names tableSettings()
{
    Names keys;
    for (const SettingKind &k : settingKinds())
        keys.insert(QString::fromStdString(k.key));
    return keys;
}

} // namespace

class TestOptionDocs : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void everyOptionInTheManPage_data();
    void everyOptionInTheManPage();
    void everySubcommandInTheManPage();
    void variantSettingsAsTheTableHasThem_data();
    void variantSettingsAsTheTableHasThem();
    void presetsAsTheTableHasThem();

private:
    QString help(const QStringList &args);

    QString m_binary, m_roff, m_man, m_completion;
};

QString TestOptionDocs::help(const QStringList &args)
{
    const Outcome o = runProgram(m_binary, args);
    if (!o.finished || o.exitCode != 0)
        qWarning("%s", qUtf8Printable(o.describe()));
    return o.out;
}

void TestOptionDocs::initTestCase()
{
    m_binary = qEnvironmentVariable("LATPROBE_BINARY");
    QVERIFY2(!m_binary.isEmpty(), "LATPROBE_BINARY must name the latprobe binary (CTest sets it)");
    m_roff = readFile(PACKAGING_DIR "/latprobe.1.in");
    m_completion = readFile(PACKAGING_DIR "/latprobe.bash-completion");
    QVERIFY2(!m_roff.isEmpty(), PACKAGING_DIR "/latprobe.1.in");
    QVERIFY2(!m_completion.isEmpty(), PACKAGING_DIR "/latprobe.bash-completion");
    m_man = manText(m_roff);
}

void TestOptionDocs::everyOptionInTheManPage_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("option");
    QStringList commands = {QString()};
    for (const QString &sub : helpSubcommands(help({QStringLiteral("--help")})))
        commands << sub;
    QVERIFY2(commands.size() > 1, "latprobe --help lists no subcommands");
    for (const QString &sub : commands) {
        QStringList args = sub.isEmpty() ? QStringList() : QStringList{sub};
        args << QStringLiteral("--help");
        const Names options = helpOptions(help(args));
        // sysinfo takes none but --help; run takes dozens, and the parse must find them.
        if (sub == QLatin1String("run"))
            QVERIFY2(options.size() > 20,
                     qUtf8Printable("run --help: the parse found only " + describe(options)));
        for (const QString &o : options)
            QTest::addRow("%s %s", qUtf8Printable(sub.isEmpty() ? "latprobe" : sub),
                          qUtf8Printable(o))
                << args << o;
    }
}

void TestOptionDocs::everyOptionInTheManPage()
{
    QFETCH(QStringList, args);
    QFETCH(QString, option);
    QVERIFY2(namesOption(m_man, option),
             qUtf8Printable(QStringLiteral("latprobe %1 lists %2; the man page "
                                           "(packaging/latprobe.1.in) does not name it")
                                .arg(args.join(' '), option)));
}

void TestOptionDocs::everySubcommandInTheManPage()
{
    for (const QString &sub : helpSubcommands(help({QStringLiteral("--help")}))) {
        const QRegularExpression entry(QStringLiteral("^\\.B %1$").arg(sub),
                                       QRegularExpression::MultilineOption);
        QVERIFY2(entry.match(m_roff).hasMatch(),
                 qUtf8Printable(QStringLiteral("the man page's COMMANDS has no entry "
                                               "\".B %1\"")
                                    .arg(sub)));
    }
}

void TestOptionDocs::variantSettingsAsTheTableHasThem_data()
{
    QTest::addColumn<QString>("where");
    for (const char *where : {"man page", "run --help", "completion"})
        QTest::newRow(where) << QString(where);
}

void TestOptionDocs::variantSettingsAsTheTableHasThem()
{
    QFETCH(QString, where);
    const Names documented =
        where == QLatin1String("man page") ? manPageSettings(m_roff)
        : where == QLatin1String("run --help")
            ? helpSettings(help({QStringLiteral("run"), QStringLiteral("--help")}))
            : completionSettings(m_completion);
    const Names table = tableSettings();
    QVERIFY2(documented == table,
             qUtf8Printable(QStringLiteral("%1 gives the variant settings %2; the table "
                                           "(settingKinds()): %3")
                                .arg(where, describe(documented), describe(table))));
}

// --preset takes a consumer preset and nothing else (a scenario is
// --scenario's): the completion offers exactly presets().
void TestOptionDocs::presetsAsTheTableHasThem()
{
    Names table;
    for (const Preset &p : presets())
        table.insert(QString::fromStdString(p.name));
    const Names offered = completionWords(m_completion, QStringLiteral("presets"));
    QVERIFY2(offered == table, qUtf8Printable(QStringLiteral("the completion offers --preset %1; "
                                                             "the table (presets()): %2")
                                                  .arg(describe(offered), describe(table))));
}

QTEST_GUILESS_MAIN(TestOptionDocs)
#include "tst_optiondocs.moc"
