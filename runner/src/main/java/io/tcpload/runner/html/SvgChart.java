package io.tcpload.runner.html;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A line chart drawn as inline SVG: lines for series of (x, y) points, optional min-max bands,
 * linear or logarithmic axes with ticks. Built once and rendered; not thread-safe.
 */
final class SvgChart {
    static final int WIDTH = 960;
    static final int HEIGHT = 300;
    private static final int LEFT = 70;
    private static final int RIGHT = 20;
    private static final int TOP = 30;
    private static final int BOTTOM = 45;

    /** How an axis value is written at a tick. */
    interface TickLabel {
        String of(double value);
    }

    private record Series(
            String name, String color, double[] x, double[] y, double[] low, double[] high) {}

    private final String id;
    private final String title;
    private final String xTitle;
    private final String yTitle;
    private final List<Series> series = new ArrayList<>();
    private List<double[]> xTicks = List.of();
    private TickLabel xLabel = SvgChart::number;
    private TickLabel yLabel = SvgChart::number;
    private boolean logX;
    private boolean timeX;
    private boolean wholeY;

    /**
     * Steps between time ticks, in seconds: ones a reader counts in (seconds, minutes, hours), so
     * that a ten-minute run is marked every two minutes rather than every 100 seconds.
     */
    private static final double[] TIME_STEPS = {
        1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400
    };

    SvgChart(String id, String title, String xTitle, String yTitle) {
        this.id = id;
        this.title = title;
        this.xTitle = xTitle;
        this.yTitle = yTitle;
    }

    SvgChart line(String name, String color, double[] x, double[] y) {
        series.add(new Series(name, color, x, y, null, null));
        return this;
    }

    /** A line with a shaded band from {@code low} to {@code high} around it. */
    SvgChart band(String name, String color, double[] x, double[] y, double[] low, double[] high) {
        series.add(new Series(name, color, x, y, low, high));
        return this;
    }

    SvgChart yLabel(TickLabel label) {
        this.yLabel = label;
        return this;
    }

    SvgChart xLabel(TickLabel label) {
        this.xLabel = label;
        return this;
    }

    /** A y axis of counts: its four steps are whole numbers, never a quarter of an error. */
    SvgChart wholeY() {
        this.wholeY = true;
        return this;
    }

    /** An x axis of seconds, with ticks at whole seconds, minutes or hours. */
    SvgChart timeX() {
        this.timeX = true;
        return this;
    }

    /** A logarithmic x axis (values must be positive) with ticks at the given values. */
    SvgChart logX(double... ticks) {
        this.logX = true;
        List<double[]> list = new ArrayList<>();
        for (double tick : ticks) {
            list.add(new double[] {tick});
        }
        this.xTicks = list;
        return this;
    }

    String render() {
        double xMin = Double.POSITIVE_INFINITY;
        double xMax = Double.NEGATIVE_INFINITY;
        double yMax = 0;
        for (Series s : series) {
            for (int i = 0; i < s.x.length; i++) {
                xMin = Math.min(xMin, tx(s.x[i]));
                xMax = Math.max(xMax, tx(s.x[i]));
                yMax = Math.max(yMax, s.high != null ? s.high[i] : s.y[i]);
            }
        }
        if (xMin > xMax) {
            xMin = 0;
            xMax = 1;
        }
        if (xMax == xMin) {
            xMax = xMin + 1;
        }
        double yTop = wholeY ? wholeCeiling(yMax) : niceCeiling(yMax);
        double plotWidth = WIDTH - LEFT - RIGHT;
        double plotHeight = HEIGHT - TOP - BOTTOM;
        double x0 = xMin;
        double xSpan = xMax - xMin;
        Scale sx = v -> LEFT + (tx(v) - x0) / xSpan * plotWidth;
        Scale sy = v -> TOP + plotHeight - v / yTop * plotHeight;

        StringBuilder svg = new StringBuilder(8192);
        svg.append("<svg class=\"chart\" id=\"")
                .append(id)
                .append("\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ")
                .append(WIDTH)
                .append(' ')
                .append(HEIGHT)
                .append("\" role=\"img\" aria-label=\"")
                .append(Html.escape(title))
                .append("\">\n");
        svg.append("<text class=\"title\" x=\"")
                .append(LEFT)
                .append("\" y=\"18\">")
                .append(Html.escape(title))
                .append("</text>\n");
        // Horizontal grid with y ticks.
        for (int i = 0; i <= 4; i++) {
            double value = yTop * i / 4;
            double y = sy.at(value);
            svg.append("<line class=\"grid\" x1=\"")
                    .append(LEFT)
                    .append("\" x2=\"")
                    .append(WIDTH - RIGHT)
                    .append("\" y1=\"")
                    .append(f(y))
                    .append("\" y2=\"")
                    .append(f(y))
                    .append("\"/><text class=\"tick\" text-anchor=\"end\" x=\"")
                    .append(LEFT - 6)
                    .append("\" y=\"")
                    .append(f(y + 4))
                    .append("\">")
                    .append(Html.escape(yLabel.of(value)))
                    .append("</text>\n");
        }
        for (double tick : xTickValues(xMin, xMax)) {
            double x = sx.at(tick);
            svg.append("<line class=\"grid\" x1=\"")
                    .append(f(x))
                    .append("\" x2=\"")
                    .append(f(x))
                    .append("\" y1=\"")
                    .append(TOP)
                    .append("\" y2=\"")
                    .append(f(TOP + plotHeight))
                    .append("\"/><text class=\"tick\" text-anchor=\"middle\" x=\"")
                    .append(f(x))
                    .append("\" y=\"")
                    .append(f(TOP + plotHeight + 16))
                    .append("\">")
                    .append(Html.escape(xLabel.of(tick)))
                    .append("</text>\n");
        }
        svg.append("<text class=\"axis\" text-anchor=\"middle\" x=\"")
                .append(f(LEFT + plotWidth / 2))
                .append("\" y=\"")
                .append(HEIGHT - 6)
                .append("\">")
                .append(Html.escape(xTitle))
                .append("</text>\n<text class=\"axis\" x=\"6\" y=\"")
                .append(TOP - 8)
                .append("\">")
                .append(Html.escape(yTitle))
                .append("</text>\n");
        int legendX = WIDTH - RIGHT;
        for (int s = series.size() - 1; s >= 0; s--) {
            Series one = series.get(s);
            legendX -= 14 + 8 * one.name.length();
            svg.append("<g class=\"legend\"><rect x=\"")
                    .append(legendX)
                    .append("\" y=\"8\" width=\"10\" height=\"10\" fill=\"")
                    .append(one.color)
                    .append("\"/><text x=\"")
                    .append(legendX + 13)
                    .append("\" y=\"17\">")
                    .append(Html.escape(one.name))
                    .append("</text></g>\n");
        }
        for (Series one : series) {
            if (one.x.length == 0) {
                continue;
            }
            if (one.low != null) {
                svg.append("<polygon class=\"band\" fill=\"")
                        .append(one.color)
                        .append("\" fill-opacity=\"0.2\" points=\"");
                for (int i = 0; i < one.x.length; i++) {
                    svg.append(f(sx.at(one.x[i]))).append(',').append(f(sy.at(one.high[i])));
                    svg.append(' ');
                }
                for (int i = one.x.length - 1; i >= 0; i--) {
                    svg.append(f(sx.at(one.x[i]))).append(',').append(f(sy.at(one.low[i])));
                    svg.append(' ');
                }
                svg.append("\"/>\n");
            }
            svg.append("<polyline class=\"series\" data-name=\"")
                    .append(Html.escape(one.name))
                    .append("\" fill=\"none\" stroke-width=\"1.5\" stroke=\"")
                    .append(one.color)
                    .append("\" points=\"");
            for (int i = 0; i < one.x.length; i++) {
                svg.append(f(sx.at(one.x[i]))).append(',').append(f(sy.at(one.y[i]))).append(' ');
            }
            svg.append("\"/>\n");
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    private double tx(double value) {
        return logX ? Math.log10(value) : value;
    }

    private List<Double> xTickValues(double xMin, double xMax) {
        List<Double> ticks = new ArrayList<>();
        if (logX) {
            for (double[] tick : xTicks) {
                if (tx(tick[0]) >= xMin - 1e-9 && tx(tick[0]) <= xMax + 1e-9) {
                    ticks.add(tick[0]);
                }
            }
            return ticks;
        }
        double step = timeX ? timeStep((xMax - xMin) / 8) : niceCeiling((xMax - xMin) / 8);
        for (double v = Math.ceil(xMin / step) * step; v <= xMax + 1e-9; v += step) {
            ticks.add(v);
        }
        return ticks;
    }

    /**
     * The top of a y axis of counts: below 20, the smallest multiple of 4 (at least 4) that holds
     * {@code value}, so that each of the four grid steps is whole; from 20 on, {@link
     * #niceCeiling}.
     */
    static double wholeCeiling(double value) {
        return value < 20 ? 4 * Math.max(1, Math.ceil(value / 4)) : niceCeiling(value);
    }

    /** The smallest time step at least {@code seconds}; whole days past the table. */
    static double timeStep(double seconds) {
        for (double step : TIME_STEPS) {
            if (step >= seconds) {
                return step;
            }
        }
        return 86400 * Math.ceil(seconds / 86400);
    }

    /** The smallest of 1, 2, 2.5, 5 times a power of ten at least {@code value} (1 for 0). */
    static double niceCeiling(double value) {
        if (!(value > 0)) {
            return 1;
        }
        double power = Math.pow(10, Math.floor(Math.log10(value)));
        for (double factor : new double[] {1, 2, 2.5, 5, 10}) {
            if (factor * power >= value * (1 - 1e-12)) {
                return factor * power;
            }
        }
        return 10 * power;
    }

    static String number(double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        return String.format(Locale.ROOT, "%.3g", value);
    }

    private static String f(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }

    private interface Scale {
        double at(double value);
    }
}
