// The checks before anything changes, against a fake machine: every
// refusal is one line that names the variant and says what to grant or
// install. And the pieces they stand on: setting files, choices, the
// cgroup cpu controller, hand commands.

#include "cpucgroup.h"
#include "faketree.h"
#include "kernelfile.h"
#include "knobcheck.h"
#include "settingkind.h"
#include "variant.h"

#include <QTest>

using namespace latprobe;

namespace {

// What a row does to the fake machine before the check.
enum Tweak {
    AsIs,
    NotRoot,
    NoSchedExt,
    SchedExtRunning,
    NoPreempt,
    PreemptUnwritable,
    PreemptWithoutLazy,
    NoThp,
    NoCpuController,
    V2WithoutSubtree,
    V2,
    NoStateDir,
    SliceIgnored,
    RealtimeProbe,
    CommandsAllowed,
};

void applyTweak(FakeTree &tree, KnobEnvironment &env, KnobRun &run, int tweak)
{
    switch (tweak) {
    case NotRoot:
        env.root = false;
        break;
    case NoSchedExt:
        tree.remove("sys/kernel/sched_ext");
        break;
    case SchedExtRunning:
        tree.write("sys/kernel/sched_ext/state", "enabled\n");
        tree.write("sys/kernel/sched_ext/root/ops", "rusty\n");
        break;
    case NoPreempt:
        tree.remove("debug/sched");
        break;
    case PreemptUnwritable: // a directory: no open for writing, even as root
        tree.remove("debug/sched/preempt");
        QDir(tree.dir.path()).mkpath("debug/sched/preempt");
        break;
    case PreemptWithoutLazy:
        tree.write("debug/sched/preempt", "none voluntary (full)\n");
        break;
    case NoThp:
        tree.remove("sys/kernel/mm");
        break;
    case NoCpuController:
        tree.remove("cgroup/cpu");
        break;
    case V2WithoutSubtree:
    case V2:
        tree.remove("cgroup/cpu");
        tree.write("cgroup/cgroup.controllers", "cpuset cpu io memory pids\n");
        tree.write("cgroup/cgroup.subtree_control",
                   tweak == V2 ? "cpu memory pids\n" : "memory pids\n");
        break;
    case NoStateDir:
        env.stateDir.clear();
        break;
    case SliceIgnored:
        env.sliceProbe = [] { return std::string("the kernel ignores per-task slices"); };
        break;
    case RealtimeProbe:
        run.realtimeProbe = true;
        break;
    case CommandsAllowed:
        run.allowCommands = true;
        break;
    default:
        break;
    }
}

} // namespace

class TestKnobCheck : public QObject
{
    Q_OBJECT

private slots:
    void allows_data()
    {
        QTest::addColumn<QStringList>("variants");
        QTest::addColumn<int>("tweak");
        QTest::newRow("as the system is") << QStringList{"a:", "b:"} << int(AsIs);
        QTest::newRow("autogroup") << QStringList{"on:autogroup=1", "off:autogroup=0"} << int(AsIs);
        QTest::newRow("every value setting")
            << QStringList{"x:slice_us=300,preempt=none,load_nice=-3,load_policy=batch,load_"
                           "weight=50,sysctl=vm.swappiness=10,sysctl=kernel.numa_balancing=1"}
            << int(AsIs);
        QTest::newRow("a scheduler on PATH") << QStringList{"lavd:scx=scx_fake /x"} << int(AsIs);
        QTest::newRow("a command, allowed")
            << QStringList{"g:cmd=setfile /x performance,undo=setfile /x schedutil"}
            << int(CommandsAllowed);
        QTest::newRow("cgroup v2") << QStringList{"w:load_weight=50"} << int(V2);
        QTest::newRow("per-run settings need no root")
            << QStringList{"s:slice_us=300,load_nice=5,load_policy=idle"} << int(NotRoot);
        QTest::newRow("nor a journal") << QStringList{"s:slice_us=300"} << int(NoStateDir);
    }

    void allows()
    {
        QFETCH(QStringList, variants);
        QFETCH(int, tweak);
        FakeTree tree;
        KnobEnvironment env = tree.env();
        KnobRun run;
        applyTweak(tree, env, run, tweak);
        std::vector<Variant> vs;
        for (const QString &text : variants) {
            Variant v;
            std::string error;
            QVERIFY2(parseVariant(text.toStdString(), v, error), error.c_str());
            vs.push_back(v);
        }
        const std::string why = refuseVariants(vs, env, run);
        QVERIFY2(why.empty(), why.c_str());
    }

    // Long on purpose: one row a refusal, each with its whole line.
    void refuses_data()
    {
        QTest::addColumn<QStringList>("variants");
        QTest::addColumn<int>("tweak");
        QTest::addColumn<QString>("error"); // {T}: the fake tree's directory
        QTest::newRow("no root for autogroup")
            << QStringList{"off:autogroup=0"} << int(NotRoot)
            << "variant off: autogroup= changes the whole machine and needs root: run latprobe "
               "as root (sudo)";
        QTest::newRow("no root for a cgroup")
            << QStringList{"w:load_weight=50"} << int(NotRoot)
            << "variant w: load_weight= changes the whole machine and needs root: run latprobe "
               "as root (sudo)";
        QTest::newRow("no root for a nice below 0")
            << QStringList{"n:load_nice=-5"} << int(NotRoot)
            << "variant n: load_nice below 0 needs root: run latprobe as root, or use 0 to 19";
        QTest::newRow("no sched_ext")
            << QStringList{"lavd:scx=scx_fake /x"} << int(NoSchedExt)
            << "variant lavd: scx needs a kernel with sched_ext (CONFIG_SCHED_CLASS_EXT, Linux "
               "6.12+), and {T}/sys/kernel/sched_ext/state is missing: boot such a kernel";
        QTest::newRow("a scheduler already runs")
            << QStringList{"lavd:scx=scx_fake /x"} << int(SchedExtRunning)
            << "variant lavd: the sched_ext scheduler rusty already runs: stop it first "
               "(scxctl stop, or systemctl stop scx_loader)";
        QTest::newRow("no such scheduler")
            << QStringList{"lavd:scx=scx_lavd --performance"} << int(AsIs)
            << "variant lavd: cannot find the scheduler scx_lavd in PATH: install it or give "
               "its full path";
        QTest::newRow("an unknown sysctl")
            << QStringList{"s:sysctl=vm.no_such_knob=1"} << int(AsIs)
            << "variant s: unknown sysctl vm.no_such_knob ({T}/proc/sys/vm/no_such_knob is "
               "missing): check the name with sysctl -a";
        QTest::newRow("a write-only sysctl")
            << QStringList{"s:sysctl=vm.fake_action=1"} << int(AsIs)
            << "variant s: sysctl vm.fake_action cannot be read, so it could not be put back: "
               "it is an action, not a setting";
        QTest::newRow("a read-only sysctl")
            << QStringList{"s:sysctl=vm.fake_readonly=0"} << int(AsIs)
            << "variant s: sysctl vm.fake_readonly is read-only";
        QTest::newRow("an action sysctl")
            << QStringList{"s:sysctl=vm.drop_caches=3"} << int(AsIs)
            << "variant s: sysctl vm.drop_caches is an action, not a setting: it cannot be put "
               "back";
        QTest::newRow("a sysctl outside the families")
            << QStringList{"s:sysctl=kernel.panic=0"} << int(AsIs)
            << "variant s: sysctl kernel.panic is outside what a variant may set: "
               "kernel.sched_*, kernel.numa_balancing* or vm.*";
        QTest::newRow("a slice out of range")
            << QStringList{"s:slice_us=50"} << int(AsIs)
            << "variant s: slice_us must be a whole number of microseconds from 100 to 100000 "
               "(the kernel clamps to 0.1-100 ms without a word)";
        QTest::newRow("a kernel that ignores slices")
            << QStringList{"s:slice_us=300"} << int(SliceIgnored)
            << "variant s: the kernel ignores per-task slices";
        QTest::newRow("a slice with a real-time probe")
            << QStringList{"s:slice_us=300"} << int(RealtimeProbe)
            << "variant s: slice_us= applies to SCHED_OTHER threads, and this run measures "
               "with SCHED_FIFO or RR: measure with --policy other";
        QTest::newRow("no debugfs preempt")
            << QStringList{"p:preempt=none"} << int(NoPreempt)
            << "variant p: the preemption model is fixed here ({T}/debug/sched/preempt is "
               "missing): preempt needs a PREEMPT_DYNAMIC kernel and debugfs mounted (mount -t "
               "debugfs none /sys/kernel/debug)";
        QTest::newRow("preempt not writable")
            << QStringList{"p:preempt=none"} << int(PreemptUnwritable)
            << "variant p: the preemption model is fixed here: cannot write "
               "{T}/debug/sched/preempt (Is a directory); preempt needs a PREEMPT_DYNAMIC "
               "kernel whose debugfs root may write";
        QTest::newRow("a model the kernel lacks")
            << QStringList{"p:preempt=lazy"} << int(PreemptWithoutLazy)
            << "variant p: this kernel offers no preempt=lazy (it offers: none voluntary (full))";
        QTest::newRow("no transparent huge pages")
            << QStringList{"t:thp=never"} << int(NoThp)
            << "variant t: this kernel has no transparent huge pages "
               "({T}/sys/kernel/mm/transparent_hugepage/enabled is missing): thp needs "
               "CONFIG_TRANSPARENT_HUGEPAGE";
        QTest::newRow("no cpu controller")
            << QStringList{"w:load_weight=50"} << int(NoCpuController)
            << "variant w: load_weight needs the cgroup cpu controller, and {T}/cgroup has none "
               "(no cpu in cgroup.controllers, no v1 cpu hierarchy): enable it in the kernel or "
               "mount it";
        QTest::newRow("v2 cpu not delegated")
            << QStringList{"w:load_weight=50"} << int(V2WithoutSubtree)
            << "variant w: load_weight needs the cgroup v2 cpu controller enabled for child "
               "groups: echo +cpu > {T}/cgroup/cgroup.subtree_control";
        QTest::newRow("a command without consent")
            << QStringList{"g:cmd=setfile /x a,undo=setfile /x b"} << int(AsIs)
            << "variant g: cmd= runs a program of yours: add --allow-commands to allow it";
        QTest::newRow("a command not installed")
            << QStringList{"g:cmd=cpupower frequency-set -g performance,undo=setfile /x b"}
            << int(CommandsAllowed)
            << "variant g: cannot find the program cpupower in PATH: install it or give its "
               "full path";
        QTest::newRow("an undo not installed")
            << QStringList{"g:cmd=setfile /x a,undo=cpupower frequency-set -g schedutil"}
            << int(CommandsAllowed)
            << "variant g: cannot find the program cpupower in PATH: install it or give its "
               "full path";
        QTest::newRow("nowhere for the journal")
            << QStringList{"c:autogroup=1"} << int(NoStateDir)
            << "variant c: a setting that changes the machine is journalled in "
               "$XDG_RUNTIME_DIR, which is not set: set it (or run as root, which uses /run)";
        QTest::newRow("two names alike")
            << QStringList{"a:autogroup=1", "a:autogroup=0"} << int(AsIs)
            << "two variants are called a: give each its own name";
        QTest::newRow("one file two ways")
            << QStringList{"x:autogroup=1,sysctl=kernel.sched_autogroup_enabled=0"} << int(AsIs)
            << "variant x: autogroup=1 and sysctl=kernel.sched_autogroup_enabled=0 both change "
               "kernel.sched_autogroup_enabled: keep one";
        QTest::newRow("the second variant's") << QStringList{"a:", "b:autogroup=3"} << int(AsIs)
                                              << "variant b: autogroup must be 0 (off) or 1 (on)";
    }

    void refuses()
    {
        QFETCH(QStringList, variants);
        QFETCH(int, tweak);
        QFETCH(QString, error);
        FakeTree tree;
        KnobEnvironment env = tree.env();
        KnobRun run;
        applyTweak(tree, env, run, tweak);
        std::vector<Variant> vs;
        for (const QString &text : variants) {
            // What the parser refuses is built by hand, as JSON could give
            // it: the checks must not rely on the parser.
            Variant v;
            std::string ignored;
            if (!parseVariant(text.toStdString(), v, ignored)) {
                const QString setting = text.section(':', 1);
                v.name = text.section(':', 0, 0).toStdString();
                v.settings = {{setting.section('=', 0, 0).toStdString(),
                               setting.section('=', 1).toStdString()}};
            }
            vs.push_back(v);
        }
        const QString got = QString::fromStdString(refuseVariants(vs, env, run));
        QCOMPARE(got, QString(error).replace("{T}", tree.dir.path()));
        QVERIFY(!got.contains('\n'));
    }

    void machineRefusalsForTheDialog()
    {
        FakeTree tree;
        KnobEnvironment env = tree.env();
        KnobRun run;
        tree.remove("sys/kernel/sched_ext");
        QVERIFY(!machineRefusal(*findSettingKind("scx"), env, run).empty());
        QVERIFY(machineRefusal(*findSettingKind("autogroup"), env, run).empty());
        QVERIFY(!machineRefusal(*findSettingKind("cmd"), env, run).empty()); // no consent
        run.allowCommands = true;
        QVERIFY(machineRefusal(*findSettingKind("cmd"), env, run).empty());
    }

    void currentValues()
    {
        FakeTree tree;
        const KnobEnvironment env = tree.env();
        const auto current = [&](const char *key) {
            return QString::fromStdString(findSettingKind(key)->current(env));
        };
        QCOMPARE(current("autogroup"), QString("1"));
        QCOMPARE(current("preempt"), QString("full"));
        QCOMPARE(current("thp"), QString("madvise")); // sysfs marks it in brackets
        QCOMPARE(current("scx"), QString("none"));
        QCOMPARE(current("load_weight"), QString("100 (cgroup v1 cpu.shares)"));
        tree.write("debug/sched/base_slice_ns", "700000\n");
        QCOMPARE(current("slice_us"), QString("default (700 us)"));
        tree.remove("debug/sched");
        QCOMPARE(current("preempt"), QString("fixed"));
        tree.remove("sys/kernel/sched_ext");
        QCOMPARE(current("scx"), QString("unavailable"));
        tree.remove("sys/kernel/mm");
        QCOMPARE(current("thp"), QString("unavailable"));
    }

    void choices_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("inForce");
        QTest::addColumn<QString>("offered");
        QTest::newRow("debugfs") << "none voluntary (full) lazy"
                                 << "full"
                                 << "none|voluntary|full|lazy";
        QTest::newRow("first") << "(none) voluntary full"
                               << "none"
                               << "none|voluntary|full";
        QTest::newRow("sysfs") << "always [madvise] never"
                               << "madvise"
                               << "always|madvise|never";
        QTest::newRow("none marked") << "none voluntary full"
                                     << ""
                                     << "none|voluntary|full";
    }

    void choices()
    {
        QFETCH(QString, text);
        QFETCH(QString, inForce);
        QFETCH(QString, offered);
        QCOMPARE(QString::fromStdString(choiceInForce(text.toStdString())), inForce);
        QStringList got;
        for (const std::string &c : choicesOffered(text.toStdString()))
            got << QString::fromStdString(c);
        QCOMPARE(got.join('|'), offered);
    }

    void handCommands_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("command");
        QTest::newRow("autogroup") << "1"
                                   << "/proc/sys/kernel/sched_autogroup_enabled"
                                   << "echo 1 > /proc/sys/kernel/sched_autogroup_enabled";
        QTest::newRow("spaces") << "256 256 32"
                                << "/proc/sys/vm/lowmem_reserve_ratio"
                                << "echo '256 256 32' > /proc/sys/vm/lowmem_reserve_ratio";
        QTest::newRow("a quote") << "it's"
                                 << "/a b"
                                 << R"(echo 'it'\''s' > '/a b')";
        QTest::newRow("empty") << ""
                               << "/x"
                               << "echo '' > /x";
    }

    void handCommands()
    {
        QFETCH(QString, value);
        QFETCH(QString, path);
        QFETCH(QString, command);
        QCOMPARE(QString::fromStdString(echoCommand(value.toStdString(), path.toStdString())),
                 command);
    }

    void settingFilesCompareWithoutTabs()
    {
        FakeTree tree;
        std::string value, error;
        QVERIFY(readKernelFile(tree.stdPath("proc/sys/vm/lowmem_reserve_ratio"), value, error));
        QCOMPARE(QString::fromStdString(value), QString("256 256 32 0 0"));
        QVERIFY(!readKernelFile(tree.stdPath("proc/sys/vm/nothing"), value, error));
        QCOMPARE(QString::fromStdString(error),
                 QString("cannot read %1: cannot open (No such file or directory)")
                     .arg(tree.path("proc/sys/vm/nothing")));
    }

    void cpuController_data()
    {
        QTest::addColumn<QString>("layout"); // file=content|...
        QTest::addColumn<int>("version");
        QTest::addColumn<QString>("root");
        QTest::newRow("v1, as this VM") << "cpu/cpu.shares=1024" << 1 << "cpu";
        QTest::newRow("v1 with cpuacct") << "cpu,cpuacct/cpu.shares=1024" << 1 << "cpu,cpuacct";
        QTest::newRow("v2") << "cgroup.controllers=cpu io|cgroup.subtree_control=cpu" << 2 << "";
        QTest::newRow("hybrid, cpu in unified")
            << "unified/cgroup.controllers=cpu|unified/cgroup.subtree_control=cpu" << 2
            << "unified";
        QTest::newRow("hybrid, cpu in v1, as this VM")
            << "unified/cgroup.controllers=hugetlb|cpu/cpu.shares=1024" << 1 << "cpu";
        QTest::newRow("cpuset is not cpu") << "cgroup.controllers=cpuset" << 0 << "";
    }

    void cpuController()
    {
        QFETCH(QString, layout);
        QFETCH(int, version);
        QFETCH(QString, root);
        FakeTree tree;
        tree.remove("cgroup");
        for (const QString &entry : layout.split('|'))
            tree.write("cgroup/" + entry.section('=', 0, 0), entry.section('=', 1).toUtf8());
        const CpuController c = findCpuController(tree.stdPath("cgroup"));
        QCOMPARE(c.version, version);
        if (version > 0)
            QCOMPARE(QString::fromStdString(c.root),
                     root.isEmpty() ? tree.path("cgroup") : tree.path("cgroup/" + root));
        QCOMPARE(c.refusal.empty(), version > 0);
    }

    void weights()
    {
        QCOMPARE(weightValue(2, 50), 50L);
        QCOMPARE(weightValue(1, 100), 1024L); // the defaults match
        QCOMPARE(weightValue(1, 50), 512L);
        QCOMPARE(weightValue(1, 1), 10L);
        QCOMPARE(weightValue(1, 10000), 102400L);
        QCOMPARE(QString(weightFile(1)), QString("cpu.shares"));
        QCOMPARE(QString(weightFile(2)), QString("cpu.weight"));
    }
};

QTEST_GUILESS_MAIN(TestKnobCheck)
#include "tst_knobcheck.moc"
