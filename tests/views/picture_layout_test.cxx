// The picture's layout report (views/common/picture_layout.hpp): the matrices' cover of the
// canvas, the first two labels that overlap, the JSON the gui tests read, and nothing kept when
// nobody asked for it.
#include <gtest/gtest.h>

#include "views/common/picture_layout.hpp"

namespace {

using ts::views::PictureLayout;

PictureLayout canvas_of_100() {
    PictureLayout layout;
    layout.wanted = true;
    layout.view = "stage";
    layout.canvas_max = {100.0f, 100.0f};
    return layout;
}

TEST(PictureLayout, TheMatricesBoundingBoxCoversItsShareOfTheCanvas) {
    PictureLayout layout = canvas_of_100();
    EXPECT_EQ(ts::views::matrices_cover(layout), 0.0f);
    layout.add_matrix("A", {0, 50}, {20, 100});
    layout.add_matrix("B", {30, 0}, {80, 40});
    // One box from (0, 0) to (80, 100): 80 % of the canvas, the gaps between the matrices included.
    EXPECT_FLOAT_EQ(ts::views::matrices_cover(layout), 0.8f);
    // What lies past the canvas is not on the picture.
    layout.add_matrix("C", {30, 50}, {150, 100});
    EXPECT_FLOAT_EQ(ts::views::matrices_cover(layout), 1.0f);
}

TEST(PictureLayout, TheFirstTwoOverlappingLabelsAreNamed) {
    PictureLayout layout = canvas_of_100();
    layout.add_label("label: ", "B", {10, 10}, {40, 20});
    layout.add_label("label: ", "A", {40, 10}, {70, 20});  // touching is not overlapping
    EXPECT_FALSE(ts::views::colliding_labels(layout));
    layout.add_label("tab: ", "(0,0)", {35, 15}, {45, 25});
    const auto pair = ts::views::colliding_labels(layout);
    ASSERT_TRUE(pair);
    EXPECT_EQ(pair->first.name, "label: B");
    EXPECT_EQ(pair->second.name, "tab: (0,0)");
    const std::string json = ts::views::picture_layout_json(layout);
    EXPECT_NE(json.find("\"collision\": \"label: B and tab: (0,0)\""), std::string::npos) << json;
    EXPECT_NE(json.find("\"view\": \"stage\""), std::string::npos) << json;
}

TEST(PictureLayout, NothingIsKeptUnlessWanted) {
    PictureLayout layout;
    layout.add_matrix("A", {0, 0}, {1, 1});
    layout.add_label("label: ", "A", {0, 0}, {1, 1});
    EXPECT_TRUE(layout.matrices.empty());
    EXPECT_TRUE(layout.labels.empty());
    layout.wanted = true;
    layout.add_matrix("A", {0, 0}, {1, 1});
    layout.clear();
    EXPECT_TRUE(layout.wanted) << "clear() starts a frame over; whether it is wanted stays";
    EXPECT_TRUE(layout.matrices.empty());
}

}  // namespace
