// SPDX-License-Identifier: GPL-3.0-or-later
// kvscope-render-icon IN.svg OUT.png SIZE: draws the scalable icon at one hicolor size, at
// build time, so the PNG icons are never committed and cannot drift from the SVG.
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>

#include <cstdio>

int main(int argc, char** argv)
{
    // A build has no display; drawing into a QImage needs none.
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    const QStringList args = QGuiApplication::arguments();
    bool ok = false;
    const int size = args.size() == 4 ? args[3].toInt(&ok) : 0;
    if (!ok || size < 1 || size > 1024) {
        std::fputs("usage: kvscope-render-icon IN.svg OUT.png SIZE (1-1024)\n", stderr);
        return 2;
    }
    QSvgRenderer svg(args[1]);
    if (!svg.isValid()) {
        std::fprintf(stderr, "kvscope-render-icon: cannot read %s\n", qPrintable(args[1]));
        return 1;
    }
    QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    svg.render(&painter);
    painter.end();
    if (!image.save(args[2], "PNG")) {
        std::fprintf(stderr, "kvscope-render-icon: cannot write %s\n", qPrintable(args[2]));
        return 1;
    }
    return 0;
}
