#pragma once

#include "runlibrary.h"

#include <QMainWindow>

#include <vector>

class QAction;
class QLabel;
class QLineEdit;
class QTableWidget;

namespace latprobe {

class CompareWindow;

// The run library (runlibrary.h) in a window: every run latprobe kept,
// newest first, sortable and filtered as you type; a run's report, two or
// more runs compared, a run deleted or shown in the file manager.
class RunsWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit RunsWindow(RunLibrary library, QWidget *parent = nullptr);

    void refresh();
    // Rows whose text holds `text` (any column, any case) stay visible.
    void setFilter(const QString &text);
    // The files of the selected, visible rows.
    QStringList selectedFiles() const;
    void selectFiles(const QStringList &paths);

    // The selected runs side by side; nullptr with fewer than two.
    CompareWindow *compareSelected();
    // The selected run's report, as `latprobe report` prints it.
    QString reportOfSelected() const;
    void showReportOfSelected();
    // Deletes the selected runs; with `ask`, after a question.
    int deleteSelected(bool ask = true);

    QTableWidget *table() const { return m_table; }
    QLineEdit *filterEdit() const { return m_filter; }
    QAction *compareAction() const { return m_compare; }
    QAction *reportAction() const { return m_report; }
    QLabel *summaryLabel() const { return m_summary; }

private:
    void updateActions();

    RunLibrary m_library;
    std::vector<RunLibrary::Entry> m_entries;
    QLineEdit *m_filter;
    QTableWidget *m_table;
    QLabel *m_summary;
    QAction *m_report, *m_compare, *m_delete, *m_reveal, *m_refresh;
};

} // namespace latprobe
