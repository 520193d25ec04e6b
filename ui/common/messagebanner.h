#pragma once

#include <QFrame>

class QLabel;
class QToolButton;

namespace latprobe {

// An inline message above the controls it is about (KMessageWidget-like):
// a refused load says why in a sentence, where the user is looking, and
// stays until dismissed or replaced.
class MessageBanner : public QFrame
{
    Q_OBJECT
public:
    enum Kind { Error, Information };

    explicit MessageBanner(QWidget *parent = nullptr);

    void showMessage(const QString &text, Kind kind = Error);
    QString text() const;
    Kind kind() const { return m_kind; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QLabel *m_icon;
    QLabel *m_text;
    QToolButton *m_close;
    Kind m_kind = Error;
};

} // namespace latprobe
