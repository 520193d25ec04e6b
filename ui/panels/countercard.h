#pragma once

#include <QFrame>

#include <string>

class QLabel;
class QTimer;

namespace latprobe {

// One large, readable number: a title, the value since the reset, and the
// value of the last 10 s below it. Flashes for a moment when it rises.
class CounterCard : public QFrame
{
    Q_OBJECT
public:
    CounterCard(const QString &title, const QString &toolTip, QWidget *parent = nullptr);

    // The consumer whose colour marks the card, as in the plots.
    void setConsumer(const std::string &name) { m_consumer = name; }

    // Texts are only touched when they change: a relayout costs more than
    // the comparison.
    void setValues(const QString &sinceReset, const QString &lastWindow);
    // Rising is the caller's judgement (a count went up, a maximum grew).
    void flash();
    bool isFlashing() const { return m_flashing; }
    QString valueText() const;
    QString windowText() const;
    QString title() const;

protected:
    void changeEvent(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;

private:
    void applyFonts();

    QLabel *m_title;
    QLabel *m_value;
    QLabel *m_window;
    QTimer *m_flashTimer;
    bool m_flashing = false;
    std::string m_consumer;
};

} // namespace latprobe
