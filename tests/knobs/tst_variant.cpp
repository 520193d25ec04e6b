// Variants as --variant writes them and as JSON gives them: one Variant
// either way, every refusal one line that says what to write instead.

#include "settingkind.h"
#include "variant.h"
#include "variantjson.h"

#include <nlohmann/json.hpp>

#include <QTest>

using namespace latprobe;

namespace {

const QString kKeys =
    "autogroup, slice_us, preempt, thp, load_nice, load_policy, load_weight, sysctl, scx, cmd, "
    "undo";

QString q(const std::string &s)
{
    return QString::fromStdString(s);
}

} // namespace

class TestVariant : public QObject
{
    Q_OBJECT

private slots:
    void parses_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("settings"); // key=value|key=value
        QTest::addColumn<QString>("described");
        QTest::newRow("the system as it is") << "eevdf:"
                                             << ""
                                             << "eevdf (as the system is)";
        QTest::newRow("autogroup") << "on:autogroup=1"
                                   << "autogroup=1"
                                   << "on (autogroup=1)";
        QTest::newRow("slice") << "short:slice_us=300"
                               << "slice_us=300"
                               << "short (slice_us=300)";
        QTest::newRow("a scheduler with arguments") << "lavd:scx=scx_lavd --performance"
                                                    << "scx=scx_lavd --performance"
                                                    << "lavd (scx=scx_lavd --performance)";
        QTest::newRow("scx takes the rest, commas and all")
            << "lavd:autogroup=0,scx=scx_lavd -c 0,1"
            << "autogroup=0|scx=scx_lavd -c 0,1"
            << "lavd (autogroup=0,scx=scx_lavd -c 0,1)";
        QTest::newRow("cmd up to undo")
            << "gov:cmd=cpupower frequency-set -g performance,undo=cpupower frequency-set -g "
               "schedutil"
            << "cmd=cpupower frequency-set -g performance|undo=cpupower frequency-set -g "
               "schedutil"
            << "gov (cmd=cpupower frequency-set -g performance,undo=cpupower frequency-set -g "
               "schedutil)";
        QTest::newRow("a sysctl per name")
            << "sys:sysctl=vm.swappiness=10,sysctl=kernel.sched_rt_runtime_us=900000"
            << "sysctl=vm.swappiness=10|sysctl=kernel.sched_rt_runtime_us=900000"
            << "sys (sysctl=vm.swappiness=10,sysctl=kernel.sched_rt_runtime_us=900000)";
        QTest::newRow("every per-run and value setting")
            << "all:load_weight=50,autogroup=0,slice_us=300,preempt=full,load_nice=-5,load_"
               "policy=batch"
            << "load_weight=50|autogroup=0|slice_us=300|preempt=full|load_nice=-5|load_policy="
               "batch"
            << "all (autogroup=0,slice_us=300,preempt=full,load_nice=-5,load_policy=batch,load_"
               "weight=50)";
        QTest::newRow("the kernel's slice bounds") << "b:slice_us=100000"
                                                   << "slice_us=100000"
                                                   << "b (slice_us=100000)";
    }

    void parses()
    {
        QFETCH(QString, text);
        QFETCH(QString, settings);
        QFETCH(QString, described);
        Variant v;
        std::string error;
        QVERIFY2(parseVariant(text.toStdString(), v, error), error.c_str());
        QStringList got;
        for (const Setting &s : v.settings)
            got << q(s.text());
        QCOMPARE(got.join('|'), settings);
        QCOMPARE(q(v.describe()), described);
        // What toString writes reads back as the same variant.
        Variant again;
        QVERIFY2(parseVariant(v.toString(), again, error), error.c_str());
        QCOMPARE(q(again.describe()), described);
    }

    // Long on purpose: one row a refusal, each with its whole line.
    void refuses_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error");
        QTest::newRow("no colon")
            << "off"
            << "variant \"off\": write NAME:SETTING[,SETTING...], e.g. off:autogroup=0, "
               "or NAME: for the system as it is";
        QTest::newRow("no name") << ":autogroup=0"
                                 << "variant \":autogroup=0\": a variant needs a name before the "
                                    "colon, e.g. base: or off:autogroup=0";
        QTest::newRow("a space in the name")
            << "a b:"
            << "variant \"a b:\": the name \"a b\" must be letters, digits, '-', '_' "
               "or '.', at most 32 of them";
        QTest::newRow("a name too long")
            << QString(33, 'n') + ":"
            << QString("variant \"%1:\": the name \"%1\" must be letters, digits, '-', '_' or "
                       "'.', at most 32 of them")
                   .arg(QString(33, 'n'));
        QTest::newRow("no value") << "x:autogroup"
                                  << "variant \"x:autogroup\": \"autogroup\" is not key=value";
        QTest::newRow("unknown key") << "x:nice=5"
                                     << "variant \"x:nice=5\": unknown setting \"nice\": use one "
                                        "of " +
                                            kKeys;
        QTest::newRow("a trailing comma") << "x:autogroup=1,"
                                          << "variant \"x:autogroup=1,\": an empty setting at "
                                             "the end (a comma too many?)";
        QTest::newRow("a leading comma") << "x:,autogroup=1"
                                         << "variant \"x:,autogroup=1\": an empty setting (a "
                                            "comma too many?)";
        QTest::newRow("given twice") << "x:autogroup=1,autogroup=0"
                                     << "variant \"x:autogroup=1,autogroup=0\": autogroup is "
                                        "given twice";
        QTest::newRow("a sysctl twice")
            << "x:sysctl=vm.swappiness=1,sysctl=vm.swappiness=2"
            << "variant \"x:sysctl=vm.swappiness=1,sysctl=vm.swappiness=2\": sysctl "
               "vm.swappiness is given twice";
        QTest::newRow("autogroup 2") << "x:autogroup=2"
                                     << "variant \"x:autogroup=2\": autogroup must be 0 (off) or "
                                        "1 (on)";
        const QString slice = "slice_us must be a whole number of microseconds from 100 to "
                              "100000 (the kernel clamps to 0.1-100 ms without a word)";
        QTest::newRow("slice below the kernel's") << "x:slice_us=99"
                                                  << "variant \"x:slice_us=99\": " + slice;
        QTest::newRow("slice above the kernel's") << "x:slice_us=100001"
                                                  << "variant \"x:slice_us=100001\": " + slice;
        QTest::newRow("slice not whole") << "x:slice_us=300.5"
                                         << "variant \"x:slice_us=300.5\": " + slice;
        QTest::newRow("preempt rt") << "x:preempt=rt"
                                    << "variant \"x:preempt=rt\": preempt must be none, "
                                       "voluntary, full or lazy";
        QTest::newRow("nice 20") << "x:load_nice=20"
                                 << "variant \"x:load_nice=20\": load_nice must be a whole "
                                    "number from -20 to 19";
        QTest::newRow("policy fifo") << "x:load_policy=fifo"
                                     << "variant \"x:load_policy=fifo\": load_policy must be "
                                        "batch or idle";
        const QString weight = "load_weight must be a whole number from 1 to 10000 (cgroup v2 "
                               "cpu.weight; 100 is the default)";
        QTest::newRow("weight 0") << "x:load_weight=0"
                                  << "variant \"x:load_weight=0\": " + weight;
        QTest::newRow("weight 10001") << "x:load_weight=10001"
                                      << "variant \"x:load_weight=10001\": " + weight;
        QTest::newRow("drop_caches")
            << "x:sysctl=vm.drop_caches=3"
            << "variant \"x:sysctl=vm.drop_caches=3\": sysctl vm.drop_caches is an action, not "
               "a setting: it cannot be put back";
        QTest::newRow("compact_memory")
            << "x:sysctl=vm.compact_memory=1"
            << "variant \"x:sysctl=vm.compact_memory=1\": sysctl vm.compact_memory is an "
               "action, not a setting: it cannot be put back";
        QTest::newRow("outside the families")
            << "x:sysctl=net.ipv4.ip_forward=1"
            << "variant \"x:sysctl=net.ipv4.ip_forward=1\": sysctl net.ipv4.ip_forward is "
               "outside what a variant may set: kernel.sched_*, kernel.numa_balancing* or vm.*";
        QTest::newRow("kernel but not sched")
            << "x:sysctl=kernel.panic=1"
            << "variant \"x:sysctl=kernel.panic=1\": sysctl kernel.panic is outside what a "
               "variant may set: kernel.sched_*, kernel.numa_balancing* or vm.*";
        QTest::newRow("a sysctl without a value")
            << "x:sysctl=vm.swappiness"
            << "variant \"x:sysctl=vm.swappiness\": sysctl \"vm.swappiness\": write "
               "sysctl=NAME=VALUE, e.g. sysctl=kernel.sched_child_runs_first=1";
        QTest::newRow("a path for a name")
            << "x:sysctl=vm/../../etc=1"
            << "variant \"x:sysctl=vm/../../etc=1\": \"vm/../../etc\" is not a sysctl name "
               "(write it with dots: vm.swappiness)";
        QTest::newRow("cmd without undo")
            << "x:cmd=true"
            << "variant \"x:cmd=true\": cmd= needs undo=PROGRAM ARGS, the "
               "command that puts back what it changed, written after it: "
               "cmd=...,undo=...";
        QTest::newRow("undo without cmd") << "x:undo=true"
                                          << "variant \"x:undo=true\": undo= goes with cmd=: "
                                             "give the command it undoes first";
        QTest::newRow("scx without a program")
            << "x:scx="
            << "variant \"x:scx=\": a program is missing: write PROGRAM ARGS";
        QTest::newRow("an unclosed quote")
            << "x:cmd='a,undo=b"
            << "variant \"x:cmd='a,undo=b\": \"'a\": unterminated ' quote";
    }

    void refuses()
    {
        QFETCH(QString, text);
        QFETCH(QString, error);
        Variant v;
        std::string got;
        QVERIFY(!parseVariant(text.toStdString(), v, got));
        QCOMPARE(q(got), error);
        QVERIFY(!got.empty() && got.find('\n') == std::string::npos);
    }

    void jsonMatchesText_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("text");
        QTest::newRow("no settings") << R"({"name": "eevdf"})"
                                     << "eevdf:";
        QTest::newRow("empty settings") << R"({"name": "eevdf", "settings": {}})"
                                        << "eevdf:";
        QTest::newRow("a number") << R"({"name": "off", "settings": {"autogroup": 0}})"
                                  << "off:autogroup=0";
        QTest::newRow("a scheduler")
            << R"({"name": "lavd", "settings": {"scx": "scx_lavd --performance"}})"
            << "lavd:scx=scx_lavd --performance";
        QTest::newRow("sysctls as an object")
            << R"({"name": "s", "settings": {"sysctl": {"vm.swappiness": 10,
                  "kernel.sched_rt_runtime_us": "900000"}}})"
            << "s:sysctl=kernel.sched_rt_runtime_us=900000,sysctl=vm.swappiness=10";
        QTest::newRow("argv words")
            << R"({"name": "gov", "settings": {"cmd": ["cpupower", "frequency-set", "-g",
                  "performance"], "undo": "cpupower frequency-set -g schedutil"}})"
            << "gov:cmd=cpupower frequency-set -g performance,undo=cpupower frequency-set -g "
               "schedutil";
    }

    void jsonMatchesText()
    {
        QFETCH(QString, json);
        QFETCH(QString, text);
        Variant fromJson, fromText;
        std::string error;
        QVERIFY2(variantFromJson(nlohmann::json::parse(json.toStdString()), "t.json: variants[0]",
                                 fromJson, error),
                 error.c_str());
        QVERIFY2(parseVariant(text.toStdString(), fromText, error), error.c_str());
        QCOMPARE(q(fromJson.toString()), q(fromText.toString()));
        // And back: what a run file writes reads as the same variant.
        Variant again;
        QVERIFY2(variantFromJson(variantToJson(fromJson), "again", again, error), error.c_str());
        QVERIFY(again == fromJson);
    }

    void jsonHasNoneOfTheTextsLimits()
    {
        // A comma in a value and a quote in an argv word: no way to write
        // them in --variant, plain in JSON.
        // (No raw string: moc misreads one that holds a lone quote.)
        const auto node = nlohmann::json::parse(
            "{\"name\": \"q\", \"settings\": {\"sysctl\": {\"vm.lowmem_reserve_ratio\": "
            "\"256,256\"}, \"cmd\": [\"sh\", \"-c\", \"echo it's,undo=x\"], \"undo\": "
            "[\"true\"]}}");
        Variant v;
        std::string error;
        QVERIFY2(variantFromJson(node, "q.json", v, error), error.c_str());
        QCOMPARE(q(v.find("cmd")->value), QString("sh -c 'echo it'\\''s,undo=x'"));
        QCOMPARE(q(v.find("sysctl")->value), QString("vm.lowmem_reserve_ratio=256,256"));
    }

    void jsonRefuses_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("error");
        QTest::newRow("not an object")
            << "[]"
            << "s.json: variants[1]: expected an object with \"name\" and \"settings\"";
        QTest::newRow("no name") << "{}"
                                 << "s.json: variants[1].name: expected a string";
        QTest::newRow("an unknown field")
            << R"({"name": "a", "setting": {}})"
            << "s.json: variants[1]: unknown field \"setting\" (a variant has name and settings)";
        QTest::newRow("settings not an object")
            << R"({"name": "a", "settings": []})"
            << "s.json: variants[1].settings: expected an object";
        QTest::newRow("an unknown setting")
            << R"({"name": "a", "settings": {"nice": 1}})"
            << "s.json: variants[1].settings: unknown setting \"nice\": use one of " + kKeys;
        QTest::newRow("a bool") << R"({"name": "a", "settings": {"autogroup": true}})"
                                << "s.json: variants[1].settings.autogroup: expected a string "
                                   "or a whole number";
        QTest::newRow("a sysctl string")
            << R"({"name": "a", "settings": {"sysctl": "vm.swappiness=1"}})"
            << "s.json: variants[1].settings.sysctl: expected an object of NAME: VALUE";
        QTest::newRow("a number in argv")
            << R"({"name": "a", "settings": {"cmd": ["x", 1], "undo": "y"}})"
            << "s.json: variants[1].settings.cmd: expected a command line or an array of its "
               "words";
        QTest::newRow("a value the table refuses")
            << R"({"name": "a", "settings": {"autogroup": 2}})"
            << "s.json: variants[1]: variant a: autogroup must be 0 (off) or 1 (on)";
    }

    void jsonRefuses()
    {
        QFETCH(QString, json);
        QFETCH(QString, error);
        Variant v;
        std::string got;
        QVERIFY(!variantFromJson(nlohmann::json::parse(json.toStdString()), "s.json: variants[1]",
                                 v, got));
        QCOMPARE(q(got), error);
    }

    void variantsFromAnArray()
    {
        std::vector<Variant> variants;
        std::string error;
        QVERIFY(!variantsFromJson(nlohmann::json::parse(R"([{"name": "a"}, {"name": 1}])"),
                                  "s.json: variants", variants, error));
        QCOMPARE(q(error), QString("s.json: variants[1].name: expected a string"));
        QVERIFY(variantsFromJson(nlohmann::json::parse(R"([{"name": "a"}, {"name": "b"}])"),
                                 "s.json: variants", variants, error));
        QCOMPARE(int(variants.size()), 2);
    }

    void perRunSettingsAreTyped()
    {
        Variant v;
        std::string error;
        QVERIFY(parseVariant("x:slice_us=300,load_nice=-5,load_policy=idle", v, error));
        const PerRunSettings s = perRunSettings(v);
        QCOMPARE(s.sliceNs.value_or(0), uint64_t(300'000));
        QCOMPARE(s.loadNice.value_or(0), -5);
        QVERIFY(s.loadPolicy == SchedPolicy::Idle);
        QVERIFY(parseVariant("y:autogroup=1", v, error));
        QVERIFY(!perRunSettings(v).sliceNs && !perRunSettings(v).loadNice);
    }

    void everyRowIsComplete()
    {
        for (const SettingKind &k : settingKinds()) {
            QVERIFY2(!k.syntax.empty() && !k.help.empty() && k.check, k.key.c_str());
            // A system-wide row either changes the machine or is part of
            // another's change; a per-run row never changes it.
            if (k.scope == SettingScope::PerRun)
                QVERIFY2(!k.change, k.key.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestVariant)
#include "tst_variant.moc"
