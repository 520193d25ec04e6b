#include "plotpanel.h"

#include "steadytext.h"

#include <qcustomplot.h>

#include <algorithm>

#include <QContextMenuEvent>
#include <QDateTime>
#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QVBoxLayout>

namespace latprobe {

PlotPanel::PlotPanel(const QString &title, QWidget *parent)
    : QWidget(parent), m_plot(new QCustomPlot(this)), m_titleText(title)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    setFocusPolicy(Qt::StrongFocus);
    m_plot->setFocusProxy(this);
    m_plot->setContextMenuPolicy(Qt::NoContextMenu); // handled here, keyboard too

    // Software rendering under X: antialiasing is the biggest cost of a
    // replot, and on dense 1-px lines it buys nothing. Text stays smooth.
    m_plot->setNotAntialiasedElements(QCP::aeAll);
    m_plot->setAntialiasedElements(QCP::aeNone);
    m_plot->setPlottingHints(QCP::phFastPolylines | QCP::phCacheLabels);
    m_plot->setNoAntialiasingOnDrag(true);
    m_plot->setInteractions(QCP::iNone);
    // Fewer pixels to move per replot: the overlay layer (selection rect,
    // unused here) would be a second full-size buffer to clear and blend,
    // and the plot paints every pixel, so Qt need not paint what is below.
    m_plot->layer(QStringLiteral("overlay"))->setMode(QCPLayer::lmLogical);
    m_plot->setAttribute(Qt::WA_OpaquePaintEvent);

    m_plot->plotLayout()->insertRow(0);
    m_title = new SteadyTitle(m_plot, title);
    QFont f = font();
    f.setBold(true);
    m_title->setFont(f);
    m_title->setMargins(QMargins(6, 4, 6, 0));
    m_plot->plotLayout()->addElement(0, 0, m_title);
    m_plot->axisRect()->setMinimumMargins(QMargins(8, 4, 12, 4));
    m_plot->connect(m_plot, &QCustomPlot::afterReplot, this, [this] { ++m_replots; });
    PlotPanel::applyPalette();
}

void PlotPanel::placeLegendUnderTitle(int columns)
{
    QCPLegend *legend = m_plot->legend;
    legend->setVisible(true);
    // Centred at its natural width: empty elements either side take the rest.
    auto *row = new QCPLayoutGrid;
    m_plot->plotLayout()->insertRow(1);
    m_plot->plotLayout()->addElement(1, 0, row);
    m_plot->plotLayout()->setRowStretchFactor(1, 0.001);
    row->addElement(0, 0, new QCPLayoutElement(m_plot));
    row->addElement(0, 1, legend);
    row->addElement(0, 2, new QCPLayoutElement(m_plot));
    row->setColumnStretchFactor(0, 1);
    row->setColumnStretchFactor(1, 0.001);
    row->setColumnStretchFactor(2, 1);
    row->setColumnSpacing(0);
    legend->setWrap(columns);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    m_legendColumns = columns;
    m_fittedLegend.clear();
    legend->setIconSize(14, 8);
    legend->setColumnSpacing(10);
    legend->setRowSpacing(0);
    // Room below for descenders: with none, "gui" read "qui".
    legend->setMargins(QMargins(4, 0, 4, 3));
    legend->setOuterRect(QRect());
    legend->setMaximumSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX);
    m_legendOutside = true;
}

void PlotPanel::setTitle(const QString &title)
{
    m_titleText = title;
    m_title->setText(title);
}

void PlotPanel::fitLegend()
{
    if (!m_legendOutside)
        return;
    QCPLegend *legend = m_plot->legend;
    makeLegendSteady(legend);
    // Measuring the entries lays out their text: only when it or the width
    // changed, not at every replot.
    QString fitted = QString::number(width());
    for (int i = 0; i < legend->elementCount(); ++i)
        if (auto *item = qobject_cast<QCPPlottableLegendItem *>(legend->elementAt(i)))
            fitted += QLatin1Char('\n') + item->plottable()->name();
        else
            fitted += QLatin1Char('\n');
    if (fitted == m_fittedLegend)
        return;
    m_fittedLegend = fitted;
    // Cells in fill order; a removed entry may leave an empty one.
    std::vector<int> widths;
    for (int i = 0; i < legend->elementCount(); ++i)
        if (QCPLayoutElement *e = legend->elementAt(i))
            widths.push_back(e->minimumOuterSizeHint().width());
    const int n = static_cast<int>(widths.size());
    if (n == 0)
        return;
    // Room for descenders inside each item, which clips to its own rect:
    // DejaVu's "g" reaches below the font's descent ("gui" read "qui").
    for (int i = 0; i < legend->itemCount(); ++i)
        if (QCPAbstractLegendItem *item = legend->item(i);
            item && item->margins() != QMargins(0, 0, 0, 2))
            item->setMargins(QMargins(0, 0, 0, 2));
    const int available = width() - 8; // the plot covers the panel
    int columns = std::min(m_legendColumns, n);
    for (; columns > 1; --columns) {
        int total = legend->margins().left() + legend->margins().right() +
                    legend->columnSpacing() * (columns - 1);
        for (int c = 0; c < columns; ++c) {
            int widest = 0;
            for (int i = c; i < n; i += columns) // filled a row at a time
                widest = std::max(widest, widths[static_cast<size_t>(i)]);
            total += widest;
        }
        if (total <= available)
            break;
    }
    // As many rows, evenly filled: 2 × 2 rather than 3 + 1.
    const int rows = (n + columns - 1) / columns;
    columns = (n + rows - 1) / rows;
    if (columns != legend->wrap()) {
        legend->setWrap(columns);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    }
}

void PlotPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitLegend();
}

void PlotPanel::applyPalette()
{
    const QPalette pal = palette();
    const QColor text = pal.color(QPalette::WindowText);
    QColor grid = pal.color(QPalette::Mid);
    grid.setAlpha(110);
    m_plot->setBackground(pal.brush(QPalette::Base));
    for (QCPAxis *axis : m_plot->axisRect()->axes()) {
        axis->setBasePen(QPen(text, 1));
        axis->setTickPen(QPen(text, 1));
        axis->setSubTickPen(QPen(text, 1));
        axis->setTickLabelColor(text);
        axis->setLabelColor(text);
        axis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
        axis->grid()->setZeroLinePen(Qt::NoPen);
    }
    m_title->setTextColor(text);
    QColor legendBrush = pal.color(QPalette::Base);
    legendBrush.setAlpha(215);
    m_plot->legend->setBrush(m_legendOutside ? QBrush(Qt::NoBrush) : QBrush(legendBrush));
    m_plot->legend->setBorderPen(m_legendOutside ? QPen(Qt::NoPen)
                                                 : QPen(pal.color(QPalette::Mid)));
    m_plot->legend->setTextColor(text);
    m_plot->legend->setFont(font());
}

void PlotPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) {
        m_fittedLegend.clear(); // the legend's font may have changed
        applyPalette();
        requestReplot();
    }
}

bool PlotPanel::canBeSeen() const
{
    // The plot covers this panel entirely: ask it, not the panel.
    return isVisible() && !window()->isMinimized() && !m_plot->visibleRegion().isEmpty();
}

void PlotPanel::requestReplot()
{
    if (!canBeSeen()) {
        m_dirty = true;
        return;
    }
    m_dirty = false;
    fitLegend();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void PlotPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_dirty) {
        m_dirty = false;
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

bool PlotPanel::exportPng(const QString &path)
{
    // Twice the on-screen resolution: sharp in an email or a bug report.
    return m_plot->savePng(path, m_plot->width(), m_plot->height(), 2.0);
}

bool PlotPanel::exportPdf(const QString &path)
{
    return m_plot->savePdf(path, m_plot->width(), m_plot->height(), QCP::epNoCosmetic,
                           QStringLiteral("latprobe"), m_titleText);
}

void PlotPanel::exportInteractively(bool pdf)
{
    QSettings settings(QStringLiteral("latprobe"), QStringLiteral("latprobe"));
    QString dir = settings.value(QStringLiteral("export/dir")).toString();
    if (dir.isEmpty())
        dir = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    const QString name =
        QStringLiteral("latprobe-%1-%2.%3")
            .arg(m_exportName,
                 QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")),
                 pdf ? QStringLiteral("pdf") : QStringLiteral("png"));
    const QString path = QFileDialog::getSaveFileName(
        this, pdf ? tr("Export plot as PDF") : tr("Export plot as PNG"),
        dir + QLatin1Char('/') + name,
        pdf ? tr("PDF documents (*.pdf)") : tr("PNG images (*.png)"));
    if (path.isEmpty())
        return;
    settings.setValue(QStringLiteral("export/dir"), QFileInfo(path).absolutePath());
    if (!(pdf ? exportPdf(path) : exportPng(path)))
        QMessageBox::warning(this, tr("Export failed"), tr("Could not write %1.").arg(path));
}

void PlotPanel::contextMenuEvent(QContextMenuEvent *event)
{
    QMenu menu(this);
    menu.addAction(tr("Export as &PNG…"), this, [this] { exportInteractively(false); });
    menu.addAction(tr("Export as P&DF…"), this, [this] { exportInteractively(true); });
    menu.exec(event->globalPos());
}

} // namespace latprobe
