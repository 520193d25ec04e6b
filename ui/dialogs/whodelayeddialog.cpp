#include "whodelayeddialog.h"

#include "delaybar.h"
#include "topdelayers.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QScrollArea>
#include <QStandardPaths>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace latprobe {

WhoDelayedDialog::WhoDelayedDialog(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Who delayed it"));
    auto *layout = new QVBoxLayout(this);
    m_title = new QLabel(this);
    m_title->setWordWrap(true);
    layout->addWidget(m_title);
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    m_list = new QWidget(scroll);
    m_listLayout = new QVBoxLayout(m_list);
    scroll->setWidget(m_list);
    layout->addWidget(scroll, 1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton *copy = buttons->addButton(tr("&Copy"), QDialogButtonBox::ActionRole);
    copy->setToolTip(tr("Copy the explanations as text, for a bug report"));
    connect(copy, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(m_text); });
    m_explainMore =
        buttons->addButton(tr("Explain the &next misses"), QDialogButtonBox::ActionRole);
    m_explainMore->setToolTip(tr("Have the flight recorder explain the next misses of each "
                                 "consumer in this phase too: click them once they show"));
    connect(m_explainMore, &QPushButton::clicked, this, &WhoDelayedDialog::explainMoreRequested);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(720, 480);
}

void WhoDelayedDialog::showNear(const std::vector<MissExplanation> &explanations, double timeS,
                                const QString &whyNone)
{
    while (QLayoutItem *item = m_listLayout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    const auto closer = [timeS](const MissExplanation &a, const MissExplanation &b) {
        return std::abs(a.timeS - timeS) < std::abs(b.timeS - timeS);
    };
    std::vector<const MissExplanation *> near;
    for (const MissExplanation &x : explanations)
        if (std::abs(x.timeS - timeS) <= kNearS)
            near.push_back(&x);
    std::sort(near.begin(), near.end(),
              [&](const auto *a, const auto *b) { return closer(*a, *b); });
    if (near.size() > kShown)
        near.resize(kShown);
    m_shown = static_cast<int>(near.size());
    m_text.clear();
    m_traceFiles.clear();
    // Only useful where the recorder is on (no reason to give for none).
    m_explainMore->setEnabled(whyNone.isEmpty());
    if (near.empty()) {
        QString title = whyNone;
        if (whyNone.isEmpty()) {
            title = tr("No explained miss within %1 s of %2 s: latprobe explains the first "
                       "misses of each phase and consumer from the kernel's trace; \"Explain "
                       "the next misses\" has the next ones explained as they come.")
                        .arg(kNearS)
                        .arg(timeS, 0, 'f', 1);
            // Only a phase's first misses are explained, and a ▼ on the
            // plot is small: say where to click instead of leaving the user
            // to hunt.
            const auto nearest = std::min_element(explanations.begin(), explanations.end(), closer);
            if (nearest != explanations.end())
                title +=
                    QLatin1Char(' ') +
                    tr("The nearest explained miss is at %1 s.").arg(nearest->timeS, 0, 'f', 1);
        }
        m_title->setText(title);
    } else {
        m_title->setText(tr("Misses near %1 s, from the kernel's trace on the consumer's CPU: "
                            "the bar runs from the period's start to the work done.")
                             .arg(timeS, 0, 'f', 1));
    }
    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    for (const MissExplanation *x : near) {
        const std::string text = formatExplanation(*x, 72);
        m_text += QString::fromStdString(text) + QLatin1Char('\n');
        m_listLayout->addWidget(new DelayBar(*x, m_list));
        auto *lines = new QPlainTextEdit(QString::fromStdString(text), m_list);
        lines->setReadOnly(true);
        lines->setFont(fixed);
        lines->setLineWrapMode(QPlainTextEdit::NoWrap);
        const int rows = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
        lines->setFixedHeight(lines->fontMetrics().lineSpacing() * std::min(rows, 12) + 12);
        m_listLayout->addWidget(lines);
        m_traceFiles << QString::fromStdString(x->traceFile);
        if (!x->traceFile.empty())
            addTraceButtons(static_cast<int>(m_traceFiles.size()) - 1);
    }
    m_listLayout->addStretch(1);
    show();
    raise();
}

void WhoDelayedDialog::addTraceButtons(int shown)
{
    const QString file = m_traceFiles.value(shown);
    auto *row = new QWidget(m_list);
    auto *buttons = new QHBoxLayout(row);
    buttons->setContentsMargins(0, 0, 0, 0);
    const bool there = QFileInfo::exists(file);
    auto *open = new QPushButton(tr("Open in &KernelShark"), row);
    open->setEnabled(there && !kernelSharkProgram().isEmpty());
    open->setToolTip(kernelSharkProgram().isEmpty()
                         ? tr("KernelShark is not installed (apt install kernelshark)")
                         : tr("The kernel's events around this miss, with latprobe's marker "
                              "at it: %1")
                               .arg(file));
    connect(open, &QPushButton::clicked, this, [this, shown] { openInKernelShark(shown); });
    auto *save = new QPushButton(tr("&Save trace…"), row);
    save->setEnabled(there);
    save->setToolTip(there ? tr("Save this miss's trace.dat, for a mail: it holds the name of "
                                "every task that ran")
                           : tr("The trace is not there (yet): %1").arg(file));
    connect(save, &QPushButton::clicked, this, [this, shown] {
        const QString to = QFileDialog::getSaveFileName(
            this, tr("Save trace"), QFileInfo(m_traceFiles.value(shown)).fileName(),
            tr("trace-cmd traces (*.dat)"));
        if (!to.isEmpty())
            saveTrace(shown, to);
    });
    buttons->addWidget(open);
    buttons->addWidget(save);
    buttons->addStretch(1);
    m_listLayout->addWidget(row);
}

QString WhoDelayedDialog::kernelSharkProgram()
{
    return QStandardPaths::findExecutable(QStringLiteral("kernelshark"));
}

bool WhoDelayedDialog::openInKernelShark(int shown)
{
    const QString program = kernelSharkProgram();
    const QString file = m_traceFiles.value(shown);
    if (program.isEmpty() || file.isEmpty() || !QFileInfo::exists(file))
        return false;
    return QProcess::startDetached(program, {file});
}

bool WhoDelayedDialog::saveTrace(int shown, const QString &path)
{
    const QString file = m_traceFiles.value(shown);
    if (QFileInfo::exists(path))
        QFile::remove(path); // the file dialog asked before overwriting
    if (!file.isEmpty() && QFile::copy(file, path))
        return true;
    QMessageBox::warning(
        this, tr("Save trace"),
        tr("Could not save %1 as %2: check that the folder is writable.").arg(file, path));
    return false;
}

} // namespace latprobe
