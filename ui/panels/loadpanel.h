#pragma once

#include "loadchoice.h"

#include <QWidget>

#include <deque>
#include <map>
#include <optional>
#include <vector>

class QDoubleSpinBox;
class QGridLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QScrollArea;
class QSettings;
class QSpinBox;
class QToolButton;
class QVBoxLayout;

namespace latprobe {

class LiveSession;
class LoadGroupView;
class MessageBanner;
struct GroupStatus;
struct LoadKind;

// Starting and watching loads: a row per load kind (workers, nice, its
// main parameter, the rest behind an editor, Start and Stop), then every
// running group with a bar per worker and its fairness, live.
class LoadPanel : public QWidget
{
    Q_OBJECT
public:
    explicit LoadPanel(LiveSession &session, QWidget *parent = nullptr);

    // Pulls the groups' progress; call on a timer (2 Hz is plenty).
    void refreshStatus();
    void saveSettings(QSettings &settings) const;
    void loadSettings(QSettings &settings);

    LoadChoice choice(const std::string &kind) const;
    void setChoice(const LoadChoice &choice);
    void startKind(const std::string &kind);
    // While a scenario drives the loads: Start and the per-group Stops are
    // off (Stop all loads cancels the scenario), and the banner says why.
    void setScenarioActive(bool active, const QString &scenario = {});
    bool scenarioActive() const { return m_scenarioActive; }

    QPushButton *startButton(const std::string &kind) const;
    QSpinBox *countBox(const std::string &kind) const;
    MessageBanner *banner() const { return m_banner; }
    // The height that shows every running group without a scroll bar.
    int neededHeight() const;
    // Cancels starts not yet begun and kills every group (a scenario too).
    void stopAll();
    int groupViewCount() const { return static_cast<int>(m_views.size()); }

private:
    struct Row
    {
        const LoadKind *kind = nullptr;
        LoadChoice choice; // what the editor holds
        QSpinBox *count = nullptr;
        QSpinBox *nice = nullptr;
        QDoubleSpinBox *param = nullptr; // the kind's first parameter
        QLineEdit *command = nullptr;    // custom
        QToolButton *more = nullptr;
        QPushButton *start = nullptr;
        QToolButton *stop = nullptr;
        int starting = 0;
        // What the settings keep when the row holds a choice that was
        // refused, or is over the process cap: the last one that started,
        // or the one read at launch. Refused values are never remembered.
        LoadChoice remembered;
        std::optional<LoadChoice> refused;
        std::deque<LoadChoice> pending; // starts in flight, oldest first
    };

    QGroupBox *buildStartBox();
    void addRowWidgets(Row &row, QGridLayout *grid, int line);
    void addRowButtons(Row &row, QGridLayout *grid, int line);
    QGroupBox *buildRunningBox();
    void connectSession();
    // A start of `kind` was answered, begun or refused: the choice it was
    // asked with, oldest first, if it was the panel's.
    std::optional<LoadChoice> startAnswered(const std::string &kind);
    Row *row(const std::string &kind);
    const Row *row(const std::string &kind) const;
    void syncRow(Row &row); // widgets -> choice
    void showRow(Row &row); // choice -> widgets
    void editRow(Row &row);
    void stopKind(const std::string &kind);
    void onLoadsChanged();
    void updateRunningState(const std::vector<GroupStatus> &groups);
    // Tall enough for the first group whole (bars and its figures): a scroll
    // bar is for the second one on.
    void fitRunningArea();

    LiveSession &m_session;
    MessageBanner *m_banner;
    std::vector<Row> m_rows;
    QGroupBox *m_startBox = nullptr;
    QScrollArea *m_runningScroll = nullptr;
    QVBoxLayout *m_groupsLayout = nullptr;
    QLabel *m_noGroups = nullptr;
    std::map<int, LoadGroupView *> m_views;
    bool m_scenarioActive = false;
};

} // namespace latprobe
