#pragma once

#include <QWidget>

class QCustomPlot;
class QCPTextElement;

namespace latprobe {

// A QCustomPlot with what every latprobe plot shares: colours from the
// palette (light or dark), a title that goes into exports, PNG/PDF export
// from the context menu (mouse or Menu key), and replots that are skipped
// while the plot cannot be seen.
class PlotPanel : public QWidget
{
    Q_OBJECT
public:
    explicit PlotPanel(const QString &title, QWidget *parent = nullptr);

    QCustomPlot *plot() const { return m_plot; }
    QString title() const { return m_titleText; }
    void setTitle(const QString &title);
    // A file-name friendly name: "latency", "misses", ...
    void setExportName(const QString &name) { m_exportName = name; }
    QString exportName() const { return m_exportName; }

    bool exportPng(const QString &path);
    bool exportPdf(const QString &path);
    void exportInteractively(bool pdf);

    // Replots once on the next event-loop pass; remembered while hidden.
    void requestReplot();
    bool canBeSeen() const;
    int replotCount() const { return m_replots; }

protected:
    // A one-line legend between the title and the axes, so it never hides data.
    void placeLegendUnderTitle(int columns);
    // Fewer legend columns when the plot is too narrow for them: QCustomPlot
    // would overlap the entries instead.
    void fitLegend();
    // Sets axis, grid, legend and title colours; subclasses restyle their
    // graphs after calling it.
    virtual void applyPalette();
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;

private:
    QCustomPlot *m_plot;
    QCPTextElement *m_title;
    QString m_titleText;
    QString m_exportName = QStringLiteral("plot");
    bool m_dirty = false;
    bool m_legendOutside = false;
    int m_legendColumns = 1; // as asked; fitLegend() may use fewer
    QString m_fittedLegend;  // the entries and width fitLegend() last measured
    int m_replots = 0;
};

} // namespace latprobe
