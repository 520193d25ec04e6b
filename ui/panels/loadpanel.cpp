#include "loadpanel.h"

#include "livesession.h"
#include "loadgroupview.h"
#include "loadkind.h"
#include "loadmanager.h"
#include "loadparamsdialog.h"
#include "loadspec.h"
#include "messagebanner.h"

#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <set>

namespace latprobe {

LoadPanel::LoadPanel(LiveSession &session, QWidget *parent)
    : QWidget(parent), m_session(session), m_banner(new MessageBanner(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_banner);
    layout->addWidget(buildStartBox());
    // Stop all is the toolbar's (Ctrl+Shift+X): a second button here took
    // the height the window needs at 1024x730.
    layout->addWidget(buildRunningBox(), 1);
    connectSession();
}

QGroupBox *LoadPanel::buildStartBox()
{
    auto *startBox = new QGroupBox(tr("Start a load"), this);
    m_startBox = startBox;
    auto *grid = new QGridLayout(startBox);
    // Compact: at 1024x730 with a scenario bar the window must still fit.
    grid->setContentsMargins(6, 4, 6, 4);
    grid->setHorizontalSpacing(6);
    grid->setVerticalSpacing(0);
    auto header = [&](int column, const QString &text, const QString &tip) {
        auto *l = new QLabel(QStringLiteral("<small>%1</small>").arg(text), startBox);
        l->setToolTip(tip);
        grid->addWidget(l, 0, column);
    };
    header(0, tr("Kind"), tr("What each worker process does; hover a name for details."));
    header(1, tr("Workers"), tr("Worker processes in the group, started and stopped together."));
    header(2, tr("Nice"), tr("Nice value of the workers (-20..19; below 0 needs privileges)."));
    header(3, tr("Main setting"), tr("The kind's main parameter; ⋯ edits all of them."));

    const std::vector<LoadKind> &kinds = loadKinds();
    m_rows.resize(kinds.size());
    for (size_t i = 0; i < kinds.size(); ++i) {
        Row &r = m_rows[i];
        r.kind = &kinds[i];
        r.choice = LoadChoice::defaults(kinds[i]);
        r.remembered = r.choice;
        addRowWidgets(r, grid, static_cast<int>(i) + 1);
        showRow(r);
    }
    grid->setColumnStretch(3, 1);
    return startBox;
}

void LoadPanel::addRowWidgets(Row &r, QGridLayout *grid, int line)
{
    QWidget *startBox = grid->parentWidget();
    const LoadKind &kind = *r.kind;
    const QString name = QString::fromStdString(kind.name);
    auto *label = new QLabel(name, startBox);
    label->setToolTip(QStringLiteral("%1\n%2: %3")
                          .arg(QString::fromStdString(kind.description), tr("progress counted in"),
                               QString::fromStdString(kind.unit)));
    grid->addWidget(label, line, 0);

    r.count = new QSpinBox(startBox);
    // Up to what a load spec takes: a typed count is kept as typed, and
    // one over a cap is refused by name when started, never clamped.
    r.count->setRange(1, 1000000);
    r.count->setMaximumWidth(70);
    r.count->setAccessibleName(tr("%1 workers").arg(name));
    r.count->setToolTip(tr("How many %1 workers to start").arg(name));
    label->setBuddy(r.count);
    grid->addWidget(r.count, line, 1);

    r.nice = new QSpinBox(startBox);
    r.nice->setRange(-20, 19);
    r.nice->setMaximumWidth(60);
    r.nice->setAccessibleName(tr("%1 nice").arg(name));
    r.nice->setToolTip(tr("Nice value of the %1 workers").arg(name));
    grid->addWidget(r.nice, line, 2);

    if (kind.runsCommand) {
        r.command = new QLineEdit(startBox);
        r.command->setPlaceholderText(tr("command…"));
        r.command->setToolTip(tr("The program and its arguments, run without a shell"));
        r.command->setAccessibleName(tr("%1 command").arg(name));
        grid->addWidget(r.command, line, 3);
    } else if (!kind.params.empty()) {
        const LoadParam &p = kind.params.front();
        r.param = makeParamSpinBox(p, startBox);
        r.param->setPrefix(QString::fromStdString(p.key) + QLatin1Char(' '));
        r.param->setMinimumWidth(r.param->fontMetrics().horizontalAdvance(
                                     r.param->prefix() + QStringLiteral("2500000")) +
                                 28);
        grid->addWidget(r.param, line, 3);
    }
    addRowButtons(r, grid, line);
}

void LoadPanel::addRowButtons(Row &r, QGridLayout *grid, int line)
{
    QWidget *startBox = grid->parentWidget();
    const QString name = QString::fromStdString(r.kind->name);
    r.more = new QToolButton(startBox);
    r.more->setText(QStringLiteral("⋯"));
    r.more->setAccessibleName(tr("More %1 settings").arg(name));
    grid->addWidget(r.more, line, 4);

    r.start = new QPushButton(tr("Start"), startBox);
    r.start->setAccessibleName(tr("Start %1").arg(name));
    r.start->setToolTip(tr("Start a group of %1 workers").arg(name));
    grid->addWidget(r.start, line, 5);

    r.stop = new QToolButton(startBox);
    r.stop->setText(QStringLiteral("■"));
    r.stop->setAccessibleName(tr("Stop %1").arg(name));
    r.stop->setToolTip(tr("Stop every running %1 group").arg(name));
    r.stop->setEnabled(false);
    grid->addWidget(r.stop, line, 6);

    const std::string kind = r.kind->name;
    connect(r.more, &QToolButton::clicked, this, [this, kind] { editRow(*row(kind)); });
    connect(r.start, &QPushButton::clicked, this, [this, kind] { startKind(kind); });
    connect(r.stop, &QToolButton::clicked, this, [this, kind] { stopKind(kind); });
}

QGroupBox *LoadPanel::buildRunningBox()
{
    auto *runningBox = new QGroupBox(tr("Running"), this);
    auto *runningLayout = new QVBoxLayout(runningBox);
    runningLayout->setContentsMargins(6, 4, 6, 4);
    auto *scroll = new QScrollArea(runningBox);
    m_runningScroll = scroll;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *list = new QWidget(scroll);
    m_groupsLayout = new QVBoxLayout(list);
    m_groupsLayout->setContentsMargins(0, 0, 0, 0);
    m_noGroups = new QLabel(tr("No load is running: the probe measures an idle machine.\n"
                               "Start one above and watch the counters and plots react."),
                            list);
    m_noGroups->setWordWrap(true);
    m_noGroups->setEnabled(false);
    m_groupsLayout->addWidget(m_noGroups);
    m_groupsLayout->addStretch();
    scroll->setWidget(list);
    runningLayout->addWidget(scroll);
    return runningBox;
}

void LoadPanel::connectSession()
{
    connect(&m_session, &LiveSession::loadsChanged, this, &LoadPanel::onLoadsChanged);
    connect(&m_session, &LiveSession::loadStarted, this,
            [this](int, const QString &kind, const QString &) {
                if (std::optional<LoadChoice> asked = startAnswered(kind.toStdString()))
                    row(kind.toStdString())->remembered = *asked;
                if (m_banner->kind() == MessageBanner::Error)
                    m_banner->hide();
            });
    connect(&m_session, &LiveSession::loadRefused, this,
            [this](const QString &kind, const QString &error) {
                if (std::optional<LoadChoice> asked = startAnswered(kind.toStdString()))
                    row(kind.toStdString())->refused = *asked;
                m_banner->showMessage(tr("%1 was not started: %2").arg(kind, error));
            });
}

std::optional<LoadChoice> LoadPanel::startAnswered(const std::string &kind)
{
    Row *r = row(kind);
    if (!r)
        return std::nullopt;
    std::optional<LoadChoice> asked;
    if (!r->pending.empty()) {
        asked = r->pending.front();
        r->pending.pop_front();
    }
    if (r->starting > 0 && --r->starting == 0) {
        r->start->setEnabled(!m_scenarioActive);
        r->start->setText(tr("Start"));
    }
    return asked;
}

LoadPanel::Row *LoadPanel::row(const std::string &kind)
{
    for (Row &r : m_rows)
        if (r.kind->name == kind)
            return &r;
    return nullptr;
}

const LoadPanel::Row *LoadPanel::row(const std::string &kind) const
{
    for (const Row &r : m_rows)
        if (r.kind->name == kind)
            return &r;
    return nullptr;
}

void LoadPanel::syncRow(Row &r)
{
    r.choice.count = r.count->value();
    r.choice.nice = r.nice->value();
    if (r.param)
        r.choice.params[r.kind->params.front().key] = r.param->value();
    if (r.command)
        r.choice.command = r.command->text();
}

void LoadPanel::showRow(Row &r)
{
    r.count->setValue(r.choice.count);
    r.nice->setValue(r.choice.nice);
    if (r.param)
        r.param->setValue(r.choice.params[r.kind->params.front().key]);
    if (r.command)
        r.command->setText(r.choice.command);
    r.more->setToolTip(
        tr("All %1 settings: %2")
            .arg(QString::fromStdString(r.kind->name), r.choice.extrasSummary(*r.kind)));
}

void LoadPanel::editRow(Row &r)
{
    syncRow(r);
    LoadParamsDialog dialog(*r.kind, r.choice, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    r.choice = dialog.choice();
    showRow(r);
}

LoadChoice LoadPanel::choice(const std::string &kind) const
{
    const Row *r = row(kind);
    if (!r)
        return {};
    Row copy = *r;
    const_cast<LoadPanel *>(this)->syncRow(copy);
    return copy.choice;
}

void LoadPanel::setChoice(const LoadChoice &c)
{
    if (Row *r = row(c.kind)) {
        r->choice = c;
        showRow(*r);
    }
}

void LoadPanel::startKind(const std::string &kind)
{
    Row *r = row(kind);
    if (!r)
        return;
    syncRow(*r);
    LoadSpec spec;
    std::string error;
    if (!parseLoadSpec(r->choice.specText().toStdString(), spec, error)) {
        m_banner->showMessage(QString::fromStdString(error));
        return;
    }
    r->pending.push_back(r->choice);
    ++r->starting;
    r->start->setEnabled(false);
    r->start->setText(tr("Starting…"));
    m_session.startLoads({spec});
}

void LoadPanel::setScenarioActive(bool active, const QString &scenario)
{
    m_scenarioActive = active;
    for (Row &r : m_rows)
        r.start->setEnabled(!active && r.starting == 0);
    for (auto &[id, view] : m_views)
        view->stopButton()->setEnabled(!active);
    // Said where the locked Start buttons are, not in a banner that would
    // take the room of a running group's figures.
    m_startBox->setTitle(active ? tr("Start a load: scenario %1 drives the loads").arg(scenario)
                                : tr("Start a load"));
    m_startBox->setToolTip(active ? tr("Start is back when the scenario ends. Cancel it on the "
                                       "scenario bar, or with Stop all loads.")
                                  : QString());
    refreshStatus();
}

void LoadPanel::stopKind(const std::string &kind)
{
    for (const GroupStatus &g : m_session.view().loadStatus())
        if (g.spec.kindName() == kind) {
            if (auto it = m_views.find(g.id); it != m_views.end())
                it->second->setStopping();
            m_session.stopLoad(g.id);
        }
}

void LoadPanel::onLoadsChanged()
{
    refreshStatus();
}

void LoadPanel::refreshStatus()
{
    updateRunningState(m_session.view().loadStatus());
}

void LoadPanel::updateRunningState(const std::vector<GroupStatus> &groups)
{
    std::set<int> alive;
    std::set<std::string> kinds;
    for (const GroupStatus &g : groups) {
        alive.insert(g.id);
        kinds.insert(g.spec.kindName());
        auto it = m_views.find(g.id);
        if (it == m_views.end()) {
            auto *view = new LoadGroupView(g, m_groupsLayout->parentWidget());
            connect(view, &LoadGroupView::stopRequested, this, [this, view](int id) {
                view->setStopping();
                m_session.stopLoad(id);
            });
            view->stopButton()->setEnabled(!m_scenarioActive);
            // Before the stretch at the end.
            m_groupsLayout->insertWidget(m_groupsLayout->count() - 1, view);
            m_views.emplace(g.id, view);
        } else {
            it->second->setStatus(g);
        }
    }
    for (auto it = m_views.begin(); it != m_views.end();) {
        if (alive.count(it->first)) {
            ++it;
            continue;
        }
        it->second->deleteLater();
        it = m_views.erase(it);
    }
    m_noGroups->setVisible(m_views.empty());
    fitRunningArea();
    for (Row &r : m_rows)
        r.stop->setEnabled(!m_scenarioActive && kinds.count(r.kind->name) > 0);
}

int LoadPanel::neededHeight() const
{
    return height() - m_runningScroll->viewport()->height() +
           m_runningScroll->widget()->sizeHint().height();
}

void LoadPanel::stopAll()
{
    for (auto &[id, view] : m_views)
        view->setStopping();
    m_session.stopAllLoads();
}

void LoadPanel::fitRunningArea()
{
    const QWidget *first = m_views.empty() ? static_cast<QWidget *>(m_noGroups)
                                           : static_cast<QWidget *>(m_views.begin()->second);
    const int height = first->sizeHint().height() + 2;
    if (m_runningScroll->minimumHeight() != height)
        m_runningScroll->setMinimumHeight(height);
}

void LoadPanel::saveSettings(QSettings &settings) const
{
    for (const Row &r : m_rows) {
        const LoadChoice current = choice(r.kind->name);
        LoadSpec spec;
        std::string error;
        const bool fits = parseLoadSpec(current.specText().toStdString(), spec, error) &&
                          processesFor(spec) <= m_session.view().limits().maxProcesses;
        (fits && current != r.refused ? current : r.remembered).save(settings);
    }
}

void LoadPanel::loadSettings(QSettings &settings)
{
    for (Row &r : m_rows) {
        r.choice.load(settings, *r.kind);
        r.remembered = r.choice;
        showRow(r);
    }
}

QPushButton *LoadPanel::startButton(const std::string &kind) const
{
    const Row *r = row(kind);
    return r ? r->start : nullptr;
}

QSpinBox *LoadPanel::countBox(const std::string &kind) const
{
    const Row *r = row(kind);
    return r ? r->count : nullptr;
}

} // namespace latprobe
