#include "steadytext.h"

namespace latprobe {

QSize SteadyTitle::minimumOuterSizeHint() const
{
    if (!m_size.isValid() || mText != m_measuredText || mFont != m_measuredFont ||
        mMargins != m_measuredMargins) {
        m_size = QCPTextElement::minimumOuterSizeHint();
        ++m_measurements;
        m_measuredText = mText;
        m_measuredFont = mFont;
        m_measuredMargins = mMargins;
    }
    return m_size;
}

QSize SteadyTitle::maximumOuterSizeHint() const
{
    // As QCPTextElement's: the text's height, any width.
    QSize size = minimumOuterSizeHint();
    size.setWidth(QWIDGETSIZE_MAX);
    return size;
}

QSize SteadyLegendItem::minimumOuterSizeHint() const
{
    if (!mPlottable)
        return {};
    const QString name = mPlottable->name();
    const QFont font = getFont(); // the selected font while selected
    if (!m_size.isValid() || name != m_measuredName || font != m_measuredFont ||
        mParentLegend->iconSize() != m_measuredIcon ||
        mParentLegend->iconTextPadding() != m_measuredPadding || mMargins != m_measuredMargins) {
        m_size = QCPPlottableLegendItem::minimumOuterSizeHint();
        ++m_measurements;
        m_measuredName = name;
        m_measuredFont = font;
        m_measuredIcon = mParentLegend->iconSize();
        m_measuredPadding = mParentLegend->iconTextPadding();
        m_measuredMargins = mMargins;
    }
    return m_size;
}

void makeLegendSteady(QCPLegend *legend)
{
    for (int i = 0; i < legend->elementCount(); ++i) {
        auto *item = qobject_cast<QCPPlottableLegendItem *>(legend->elementAt(i));
        if (!item || dynamic_cast<SteadyLegendItem *>(item))
            continue;
        int row = 0, column = 0;
        legend->indexToRowCol(i, row, column);
        QCPAbstractPlottable *plottable = item->plottable();
        const QMargins margins = item->margins();
        legend->remove(item); // deletes it and empties its cell
        auto *steady = new SteadyLegendItem(legend, plottable);
        steady->setMargins(margins);
        legend->addElement(row, column, steady);
    }
}

} // namespace latprobe
