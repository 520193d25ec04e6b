#include "loadparamsdialog.h"

#include "loadkind.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <cmath>

namespace latprobe {

QDoubleSpinBox *makeParamSpinBox(const LoadParam &param, QWidget *parent)
{
    auto *box = new QDoubleSpinBox(parent);
    const bool whole =
        std::floor(param.defaultValue) == param.defaultValue && std::floor(param.min) == param.min;
    box->setDecimals(whole ? 0 : 2);
    box->setRange(param.min, param.max);
    box->setValue(param.defaultValue);
    box->setToolTip(QString::fromStdString(param.key + ": " + param.help));
    box->setAccessibleName(QString::fromStdString(param.key));
    box->setAccelerated(true);
    box->setGroupSeparatorShown(false);
    return box;
}

LoadParamsDialog::LoadParamsDialog(const LoadKind &kind, const LoadChoice &choice, QWidget *parent)
    : QDialog(parent), m_kind(kind), m_choice(choice), m_policy(new QComboBox(this)),
      m_cpus(new QLineEdit(this)), m_session(new QComboBox(this))
{
    setWindowTitle(tr("%1 settings").arg(QString::fromStdString(kind.name)));
    auto *layout = new QVBoxLayout(this);
    auto *about = new QLabel(QString::fromStdString(kind.description), this);
    about->setWordWrap(true);
    layout->addWidget(about);

    auto *form = new QFormLayout;
    for (const LoadParam &p : kind.params) {
        QDoubleSpinBox *box = makeParamSpinBox(p, this);
        box->setValue(choice.params.at(p.key));
        auto *label = new QLabel(QString::fromStdString(p.key), this);
        label->setBuddy(box);
        label->setToolTip(box->toolTip());
        form->addRow(label, box);
        auto *help = new QLabel(
            QStringLiteral("<small>%1</small>").arg(QString::fromStdString(p.help).toHtmlEscaped()),
            this);
        form->addRow(QString(), help);
        m_params[p.key] = box;
    }
    if (kind.runsCommand) {
        m_command = new QLineEdit(choice.command, this);
        m_command->setPlaceholderText(tr("program and arguments, e.g. stress-ng --cpu 1"));
        m_command->setToolTip(tr("Run directly, without a shell; split on spaces, quotes group."));
        form->addRow(tr("&Command:"), m_command);
    }
    m_policy->addItem(tr("SCHED_OTHER (normal)"), QStringLiteral("other"));
    m_policy->addItem(tr("SCHED_BATCH"), QStringLiteral("batch"));
    m_policy->addItem(tr("SCHED_IDLE"), QStringLiteral("idle"));
    m_policy->setCurrentIndex(std::max(0, m_policy->findData(choice.policy)));
    m_policy->setToolTip(tr("Scheduling policy of the workers."));
    form->addRow(tr("&Policy:"), m_policy);
    m_cpus->setText(choice.cpus);
    m_cpus->setPlaceholderText(tr("all (e.g. 0 or 0-1)"));
    m_cpus->setToolTip(tr("Pin the workers to these CPUs; empty: no affinity."));
    form->addRow(tr("&CPUs:"), m_cpus);
    m_session->addItem(tr("Own session (as started from a terminal)"), true);
    m_session->addItem(tr("latprobe's session"), false);
    m_session->setCurrentIndex(choice.ownSession ? 0 : 1);
    m_session->setToolTip(tr("With autogroup on, a load in its own session competes as one "
                             "group with the desktop; in latprobe's session each worker "
                             "competes on its own."));
    form->addRow(tr("&Session:"), m_session);
    layout->addLayout(form);

    auto *buttons = new QDialogButtonBox(
        QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this,
            [this] {
                for (const LoadParam &p : m_kind.params)
                    m_params[p.key]->setValue(p.defaultValue);
                m_policy->setCurrentIndex(0);
                m_cpus->clear();
                m_session->setCurrentIndex(0);
            });
    layout->addWidget(buttons);
}

LoadChoice LoadParamsDialog::choice() const
{
    LoadChoice c = m_choice;
    for (const auto &[key, box] : m_params)
        c.params[key] = box->value();
    c.policy = m_policy->currentData().toString();
    c.cpus = m_cpus->text().trimmed();
    c.ownSession = m_session->currentData().toBool();
    if (m_command)
        c.command = m_command->text();
    return c;
}

} // namespace latprobe
