// Scenario ▸ A/B… against a fake machine (tests/knobs/faketree.h): each
// setting shows its value now, what the machine refuses is greyed out with
// why, a bad value says what is wrong and keeps Start off, and what it
// starts is the scenario the user set up, with its cost.

#include "../knobs/faketree.h"
#include "abdialog.h"
#include "compare.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTest>

using namespace latprobe;

class TestAbDialog : public QObject
{
    Q_OBJECT

private:
    static QWidget *in(AbDialog &d, const char *variant, const QString &name)
    {
        return d.findChild<QGroupBox *>(QStringLiteral("ab-variant-") + variant)
            ->findChild<QWidget *>(name);
    }
    static bool startEnabled(AbDialog &d)
    {
        return d.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->isEnabled();
    }

private slots:
    void showsEachSettingNowAndGreysOutWhatTheMachineRefuses()
    {
        FakeTree tree;
        tree.remove("sys/kernel/sched_ext"); // as on these VMs
        AbDialog d(tree.env(), KnobRun{});
        auto *now = qobject_cast<QLabel *>(in(d, "a", "ab-now-autogroup"));
        QCOMPARE(now->text(), QStringLiteral("now 1"));
        auto *scx = qobject_cast<QCheckBox *>(in(d, "b", "ab-use-scx"));
        QVERIFY(!scx->isEnabled());
        QVERIFY2(scx->toolTip().contains(QStringLiteral("sched_ext")), qPrintable(scx->toolTip()));
        QVERIFY(qobject_cast<QCheckBox *>(in(d, "b", "ab-use-autogroup"))->isEnabled());
        // Commands are for scenario files and --allow-commands, not this dialog.
        QVERIFY(!in(d, "a", "ab-use-cmd"));
    }

    void aSettingOfBPlaysAgainstTheSystemAsItIs()
    {
        FakeTree tree;
        AbDialog d(tree.env(), KnobRun{});
        // Nothing changed in either: an A/A, which Start allows and names.
        QVERIFY(startEnabled(d));
        QVERIFY(d.findChild<QLabel *>(QStringLiteral("ab-problem"))->text().contains("A/A"));
        qobject_cast<QCheckBox *>(in(d, "b", "ab-use-autogroup"))->setChecked(true);
        qobject_cast<QComboBox *>(in(d, "b", "ab-value-autogroup"))->setCurrentText("0");
        qobject_cast<QLineEdit *>(in(d, "b", "ab-name"))->setText("off");
        d.findChild<QLineEdit *>(QStringLiteral("ab-load"))->setText("burn:4");
        d.findChild<QSpinBox *>(QStringLiteral("ab-step"))->setValue(20);
        d.findChild<QSpinBox *>(QStringLiteral("ab-rounds"))->setValue(6);
        QVERIFY2(d.problem().isEmpty(), qPrintable(d.problem()));
        QVERIFY(startEnabled(d));
        const Scenario s = d.scenario();
        QCOMPARE(s.rounds, 6);
        QCOMPARE(s.variants.size(), size_t(2));
        QCOMPARE(s.variants[0].toString(), std::string("base:"));
        QCOMPARE(s.variants[1].toString(), std::string("off:autogroup=0"));
        QCOMPARE(s.steps.size(), size_t(2));
        QCOMPARE(s.steps[1].loads.at(0).kindName(), std::string("burn"));
        // 6 rounds x 2 variants x (20 s idle + 20 s burn + 2 s settling).
        QCOMPARE(s.totalS(), 6 * 2 * 42.0);
        QVERIFY2(d.cost().endsWith(QStringLiteral("= 8 min 24 s")), qPrintable(d.cost()));
    }

    void aBadValueSaysWhatIsWrongAndKeepsStartOff()
    {
        FakeTree tree;
        AbDialog d(tree.env(), KnobRun{});
        qobject_cast<QCheckBox *>(in(d, "b", "ab-use-slice_us"))->setChecked(true);
        qobject_cast<QLineEdit *>(in(d, "b", "ab-value-slice_us"))->setText("5");
        QVERIFY2(d.problem().contains(QStringLiteral("slice")), qPrintable(d.problem()));
        QVERIFY(!startEnabled(d));
        qobject_cast<QLineEdit *>(in(d, "b", "ab-value-slice_us"))->setText("300");
        QVERIFY2(d.problem().isEmpty(), qPrintable(d.problem()));
        // Two variants of one name cannot be told apart in the verdict.
        qobject_cast<QLineEdit *>(in(d, "b", "ab-name"))->setText("base");
        QVERIFY(!d.problem().isEmpty());
        QVERIFY(!startEnabled(d));
        qobject_cast<QLineEdit *>(in(d, "b", "ab-name"))->setText("short");
        d.findChild<QLineEdit *>(QStringLiteral("ab-load"))->setText("burn:many");
        QVERIFY2(d.problem().contains(QStringLiteral("burn")), qPrintable(d.problem()));
        QVERIFY(!startEnabled(d));
    }

    void fewerRoundsThanAVerdictNeedsAreWarnedOf()
    {
        // 2 rounds end "not enough rounds to tell": the dialog says so
        // before they are played, with the verdict's own count.
        FakeTree tree;
        AbDialog d(tree.env(), KnobRun{});
        d.show();
        auto *rounds = d.findChild<QSpinBox *>(QStringLiteral("ab-rounds"));
        auto *warning = d.findChild<QLabel *>(QStringLiteral("ab-rounds-warning"));
        QVERIFY(warning);
        rounds->setValue(2);
        QVERIFY(warning->isVisible());
        const QString needed = QString::number(samplesNeeded());
        QVERIFY2(warning->text().contains(QStringLiteral("needs %1 rounds").arg(needed)) &&
                     warning->text().contains(QStringLiteral("2 of the %1 needed").arg(needed)),
                 qPrintable(warning->text()));
        QVERIFY(startEnabled(d)); // a warning, not a refusal: a quick look is allowed
        rounds->setValue(static_cast<int>(samplesNeeded()));
        QVERIFY(!warning->isVisible());
    }

    void roundsMayPlayUntilDecided()
    {
        // "until decided, at most N": --rounds auto:N, N from the first look
        // on; no warning, as it plays until the verdict has its rounds.
        FakeTree tree;
        AbDialog d(tree.env(), KnobRun{});
        d.show();
        auto *rounds = d.findChild<QSpinBox *>(QStringLiteral("ab-rounds"));
        auto *until = d.findChild<QCheckBox *>(QStringLiteral("ab-until-decided"));
        auto *warning = d.findChild<QLabel *>(QStringLiteral("ab-rounds-warning"));
        QVERIFY(until && !until->isChecked());
        rounds->setValue(2);
        QVERIFY(warning->isVisible());
        until->setChecked(true);
        QCOMPARE(rounds->value(), kDefaultAutoRounds);
        QCOMPARE(rounds->minimum(), static_cast<int>(kMinRoundsAsSamples));
        QVERIFY(!warning->isVisible());
        rounds->setValue(8);
        const Scenario s = d.scenario();
        QVERIFY(s.untilDecided);
        QCOMPARE(s.rounds, 8);
        QVERIFY2(d.cost().startsWith(QStringLiteral("at most 8 rounds")), qPrintable(d.cost()));
        until->setChecked(false);
        QVERIFY(!d.scenario().untilDecided);
    }

    void whatTheRunRefusesIsRefusedHereToo()
    {
        FakeTree tree;
        KnobEnvironment env = tree.env();
        env.root = false;
        AbDialog d(env, KnobRun{});
        auto *autogroup = qobject_cast<QCheckBox *>(in(d, "b", "ab-use-autogroup"));
        QVERIFY(!autogroup->isEnabled());
        QVERIFY2(autogroup->toolTip().contains(QStringLiteral("root")),
                 qPrintable(autogroup->toolTip()));
        // What needs no root stays open: a load's nice.
        QVERIFY(qobject_cast<QCheckBox *>(in(d, "b", "ab-use-load_nice"))->isEnabled());
    }
};

QTEST_MAIN(TestAbDialog)
#include "tst_abdialog.moc"
