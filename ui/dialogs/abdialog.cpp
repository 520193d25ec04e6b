#include "abdialog.h"

#include "compare.h"
#include "loadspec.h"
#include "settingkind.h"
#include "variant.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace latprobe {

namespace {

constexpr int kIdleThenLoad = -1; // the play box's entry that is not a builtin scenario

// "none|voluntary|full|lazy": a choice; "100-100000", "NAME=VALUE": typed.
QStringList choicesOf(const SettingKind &kind)
{
    const QString syntax = QString::fromStdString(kind.syntax);
    return syntax.contains('|') && !syntax.contains(' ') ? syntax.split('|') : QStringList();
}

QString valueOf(const QWidget *editor)
{
    if (const auto *box = qobject_cast<const QComboBox *>(editor))
        return box->currentText();
    return qobject_cast<const QLineEdit *>(editor)->text().trimmed();
}

} // namespace

AbDialog::AbDialog(KnobEnvironment env, KnobRun run, QWidget *parent)
    : QDialog(parent), m_env(std::move(env)), m_run(run)
{
    setWindowTitle(tr("A/B of a setting"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(
        tr("Two variants of the system take turns inside one run (A B B A …), so that the "
           "machine's drift hits both alike; every setting is put back at the end, on Cancel "
           "and if latprobe is killed. The run ends with which is better, and by how much."));
    intro->setWordWrap(true);
    layout->addWidget(intro);

    layout->addLayout(buildPlayForm());

    auto *variants = new QHBoxLayout;
    variants->addWidget(makeVariantBox(tr("Variant A"), QStringLiteral("a"), m_a));
    variants->addWidget(makeVariantBox(tr("Variant B"), QStringLiteral("b"), m_b));
    layout->addLayout(variants);

    layout->addLayout(buildTurnsForm());

    m_problemLabel = new QLabel;
    m_problemLabel->setObjectName(QStringLiteral("ab-problem"));
    m_problemLabel->setWordWrap(true);
    layout->addWidget(m_problemLabel);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Start A/B"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(m_buttons);

    connect(m_play, &QComboBox::currentIndexChanged, this, &AbDialog::refresh);
    connect(m_load, &QLineEdit::textChanged, this, &AbDialog::refresh);
    connect(m_stepS, &QSpinBox::valueChanged, this, &AbDialog::refresh);
    connect(m_rounds, &QSpinBox::valueChanged, this, &AbDialog::refresh);
    connect(m_settle, &QDoubleSpinBox::valueChanged, this, &AbDialog::refresh);
    refresh();
}

QFormLayout *AbDialog::buildPlayForm()
{
    auto *form = new QFormLayout;
    m_play = new QComboBox;
    m_play->setObjectName(QStringLiteral("ab-play"));
    for (const std::string &name : builtinScenarioNames())
        if (const std::optional<Scenario> s = builtinScenario(name))
            m_play->addItem(tr("Scenario %1 (%2)")
                                .arg(QString::fromStdString(name),
                                     QString::fromStdString(formatDuration(s->roundS()))),
                            QString::fromStdString(name));
    m_play->addItem(tr("Idle, then a load"), kIdleThenLoad);
    m_play->setCurrentIndex(m_play->count() - 1);
    form->addRow(tr("Play"), m_play);
    m_load = new QLineEdit(QStringLiteral("burn:4"));
    m_load->setObjectName(QStringLiteral("ab-load"));
    m_load->setToolTip(tr("A load as --load takes it: KIND:N[:key=value...], e.g. burn:4, "
                          "hackbench:2, compile:2"));
    form->addRow(tr("Load"), m_load);
    m_stepS = new QSpinBox;
    m_stepS->setObjectName(QStringLiteral("ab-step"));
    m_stepS->setRange(1, 3600);
    m_stepS->setValue(20);
    m_stepS->setSuffix(tr(" s"));
    form->addRow(tr("Each step"), m_stepS);
    return form;
}

QFormLayout *AbDialog::buildTurnsForm()
{
    auto *turns = new QFormLayout;
    m_rounds = new QSpinBox;
    m_rounds->setObjectName(QStringLiteral("ab-rounds"));
    m_rounds->setRange(1, kMaxRounds);
    m_rounds->setValue(6);
    m_rounds->setToolTip(tr("Each round plays A and B once; with 5 rounds or more, each round "
                            "is a sample for the confidence intervals"));
    m_untilDecided = new QCheckBox(tr("until decided, at most"));
    m_untilDecided->setObjectName(QStringLiteral("ab-until-decided"));
    m_untilDecided->setToolTip(
        tr("Play rounds until every row of the verdict is decided (--rounds auto): it looks "
           "after each round from round %1 on, at a level that keeps false alarms at 5 % over "
           "all the looks")
            .arg(kMinRoundsAsSamples));
    connect(m_untilDecided, &QCheckBox::toggled, this, [this](bool on) {
        // The rounds box then holds the most: from the first look to the design's limit.
        m_rounds->setRange(on ? static_cast<int>(kMinRoundsAsSamples) : 1,
                           on ? kMaxAutoRounds : kMaxRounds);
        if (on)
            m_rounds->setValue(kDefaultAutoRounds);
        refresh();
    });
    auto *rounds = new QHBoxLayout;
    rounds->addWidget(m_untilDecided);
    rounds->addWidget(m_rounds);
    rounds->addStretch();
    turns->addRow(tr("Rounds"), rounds);
    m_roundsWarning = new QLabel;
    m_roundsWarning->setObjectName(QStringLiteral("ab-rounds-warning"));
    m_roundsWarning->setWordWrap(true);
    m_roundsWarning->setStyleSheet(QStringLiteral("color: #d04040;"));
    turns->addRow(QString(), m_roundsWarning);
    m_settle = new QDoubleSpinBox;
    m_settle->setObjectName(QStringLiteral("ab-settle"));
    m_settle->setRange(-1, 600);
    m_settle->setDecimals(1);
    m_settle->setSpecialValueText(
        tr("auto (%1 s, %2 s with a scheduler)").arg(kSettleS).arg(kSchedulerSettleS));
    m_settle->setValue(-1);
    m_settle->setSuffix(tr(" s"));
    m_settle->setToolTip(tr("Unmeasured time after each switch, for the machine to settle"));
    turns->addRow(tr("Settle after a switch"), m_settle);
    m_cost = new QLabel;
    m_cost->setObjectName(QStringLiteral("ab-cost"));
    turns->addRow(tr("Takes"), m_cost);
    return turns;
}

QGroupBox *AbDialog::makeVariantBox(const QString &title, const QString &name, VariantBox &box)
{
    auto *group = new QGroupBox(title);
    group->setObjectName(QStringLiteral("ab-variant-") + name);
    auto *grid = new QGridLayout(group);
    box.name =
        new QLineEdit(name == QLatin1String("a") ? QStringLiteral("base") : QStringLiteral("test"));
    box.name->setObjectName(QStringLiteral("ab-name"));
    grid->addWidget(new QLabel(tr("Name")), 0, 0);
    grid->addWidget(box.name, 0, 1, 1, 2);
    grid->setColumnStretch(1, 1); // the values: "sysctl" takes NAME=VALUE
    connect(box.name, &QLineEdit::textChanged, this, &AbDialog::refresh);
    int row = 1;
    for (const SettingKind &kind : settingKinds()) {
        // Commands are the user's own programs: a scenario file or
        // --allow-commands gives them, with their undo.
        if (kind.runsCommand)
            continue;
        const QString key = QString::fromStdString(kind.key);
        SettingRow r{&kind, new QCheckBox(key), nullptr, new QLabel};
        r.use->setObjectName(QStringLiteral("ab-use-") + key);
        if (const QStringList choices = choicesOf(kind); !choices.isEmpty()) {
            auto *combo = new QComboBox;
            combo->addItems(choices);
            connect(combo, &QComboBox::currentIndexChanged, this, &AbDialog::refresh);
            r.value = combo;
        } else {
            auto *edit = new QLineEdit;
            edit->setPlaceholderText(QString::fromStdString(kind.syntax));
            connect(edit, &QLineEdit::textChanged, this, &AbDialog::refresh);
            r.value = edit;
        }
        r.value->setObjectName(QStringLiteral("ab-value-") + key);
        r.now->setObjectName(QStringLiteral("ab-now-") + key);
        r.value->setEnabled(false);
        r.use->setToolTip(QString::fromStdString(kind.help));
        const std::string refusal = machineRefusal(kind, m_env, m_run);
        if (!refusal.empty()) {
            // Greyed out, with what to grant or install.
            r.use->setEnabled(false);
            r.now->setEnabled(false);
            r.now->setText(tr("refused here"));
            for (QWidget *w :
                 {static_cast<QWidget *>(r.use), r.value, static_cast<QWidget *>(r.now)})
                w->setToolTip(QString::fromStdString(refusal));
        } else if (kind.current) {
            r.now->setText(tr("now %1").arg(QString::fromStdString(kind.current(m_env))));
        }
        connect(r.use, &QCheckBox::toggled, r.value, &QWidget::setEnabled);
        connect(r.use, &QCheckBox::toggled, this, &AbDialog::refresh);
        grid->addWidget(r.use, row, 0);
        grid->addWidget(r.value, row, 1);
        grid->addWidget(r.now, row, 2);
        box.rows.push_back(r);
        ++row;
    }
    return group;
}

Variant AbDialog::variantOf(const VariantBox &box) const
{
    Variant v;
    v.name = box.name->text().trimmed().toStdString();
    for (const SettingRow &r : box.rows)
        if (r.use->isChecked())
            v.settings.push_back({r.kind->key, valueOf(r.value).toStdString()});
    return v;
}

Scenario AbDialog::played() const
{
    const QVariant chosen = m_play->currentData();
    if (chosen.typeId() == QMetaType::Int && chosen.toInt() == kIdleThenLoad) {
        Scenario s;
        s.name = "ab";
        s.description = "idle, then one load";
        LoadSpec load;
        std::string error;
        s.steps.push_back({"idle", static_cast<double>(m_stepS->value()), {}});
        if (parseLoadSpec(m_load->text().trimmed().toStdString(), load, error))
            s.steps.push_back({"", static_cast<double>(m_stepS->value()), {load}});
        return s;
    }
    return builtinScenario(chosen.toString().toStdString()).value_or(Scenario{});
}

Scenario AbDialog::scenario() const
{
    Scenario s = played();
    s.rounds = m_rounds->value();
    s.untilDecided = m_untilDecided->isChecked();
    s.settleS = m_settle->value() < 0 ? -1 : m_settle->value();
    s.variants = {variantOf(m_a), variantOf(m_b)};
    return s;
}

QString AbDialog::cost() const
{
    const Scenario s = scenario();
    return (s.untilDecided ? tr("at most %1 rounds × 2 variants × (%2 + %3 settling) = %4")
                           : tr("%1 rounds × 2 variants × (%2 + %3 settling) = %4"))
        .arg(s.rounds)
        .arg(QString::fromStdString(formatDuration(played().roundS())),
             QString::fromStdString(formatDuration(s.settleTimeS())),
             QString::fromStdString(formatDuration(s.totalS())));
}

void AbDialog::refresh()
{
    const bool idleThenLoad = m_play->currentData().typeId() == QMetaType::Int;
    m_load->setEnabled(idleThenLoad);
    m_stepS->setEnabled(idleThenLoad);
    m_cost->setText(cost());
    // The verdict's own words for what too few rounds end with.
    const auto rounds = static_cast<size_t>(m_rounds->value());
    const bool tooFew = rounds < samplesNeeded() && !m_untilDecided->isChecked();
    m_roundsWarning->setText(
        tooFew ? tr("⚠ A verdict needs %1 rounds; with %2 the A/B may end \"%3\"")
                     .arg(samplesNeeded())
                     .arg(rounds)
                     .arg(QString::fromStdString(notEnoughToTell(rounds, Sampling::Rounds)))
               : QString());
    m_roundsWarning->setVisible(tooFew);

    const Scenario s = scenario();
    std::string problem;
    if (idleThenLoad) {
        LoadSpec load;
        parseLoadSpec(m_load->text().trimmed().toStdString(), load, problem);
    }
    for (const Variant &v : s.variants)
        if (problem.empty())
            if (std::string why = checkVariant(v); !why.empty())
                problem = "variant " + (v.name.empty() ? std::string("?") : v.name) + ": " + why;
    if (problem.empty())
        problem = checkVariantList(s.variants);
    if (problem.empty())
        problem = refuseVariants(s.variants, m_env, m_run);
    m_problem = QString::fromStdString(problem);
    const bool same = problem.empty() && s.variants[0].settings == s.variants[1].settings;
    m_problemLabel->setText(
        !m_problem.isEmpty() ? m_problem
        : same ? tr("A and B change the same: an A/A run, which shows how much this machine's "
                    "noise alone makes them differ")
               : QString());
    m_problemLabel->setStyleSheet(m_problem.isEmpty() ? QString()
                                                      : QStringLiteral("color: #d04040;"));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(m_problem.isEmpty());
}

} // namespace latprobe
